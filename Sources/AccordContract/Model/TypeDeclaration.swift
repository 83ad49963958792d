import AccordDiagnostics

/// A named type declared under `types:` in a domain file.
public struct TypeDeclaration: Sendable, Hashable {
    public var name: String
    /// The domain whose file declares it.
    public var domain: String
    public var schema: Schema
    /// Where the name was written.
    public var location: SourceLocation

    public init(name: String, domain: String, schema: Schema, location: SourceLocation) {
        self.name = name
        self.domain = domain
        self.schema = schema
        self.location = location
    }
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
