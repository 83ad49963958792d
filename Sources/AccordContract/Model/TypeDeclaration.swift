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
