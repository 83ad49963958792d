import AccordDiagnostics

/// A named type declared under `types:` in a domain file.
public struct TypeDeclaration: Sendable, Hashable {
    public var name: String
    /// The domain whose file declares it.
    public var domain: String
    public var schema: Schema
    /// Where the name was written.
    public var location: SourceLocation
    /// The type parameters of a generic type (`Page` with `[T]`); its members name them
    /// as types. Empty for an ordinary type.
    public var parameters: [String] = []
    /// For an instance of a generic type (`Page<Match>`), which one; the loader declares these.
    public var instance: GenericInstance?

    public init(name: String, domain: String, schema: Schema, location: SourceLocation, parameters: [String] = [],
                instance: GenericInstance? = nil) {
        self.name = name
        self.domain = domain
        self.schema = schema
        self.location = location
        self.parameters = parameters
        self.instance = instance
    }

    /// Whether it has type parameters (and so is used only through its instances).
    public var isGeneric: Bool { !parameters.isEmpty }
}

extension Dictionary where Key == String, Value == TypeDeclaration {
    /// The fields of an object schema, through references to named types (at most 32
    /// hops, so a reference cycle ends); nil when it is not an object.
    public func objectFields(of schema: Schema) -> [Field]? {
        var kind = schema.kind
        for _ in 0..<32 {
            switch kind {
            case .object(let fields): return fields
            case .reference(let name):
                guard let declaration = self[name] else { return nil }
                kind = declaration.schema.kind
            default: return nil
            }
        }
        return nil
    }
}
