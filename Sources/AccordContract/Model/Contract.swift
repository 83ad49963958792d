import AccordDiagnostics

/// Everything a contracts directory declares: the service and every domain's types
/// and endpoints, checked and ready for the mock server and the generator.
public struct Contract: Sendable, Hashable {
    public var service: Service
    /// Domain names in file order.
    public var domains: [Domain]
    /// Named types by name.
    public var types: [String: TypeDeclaration]
    /// Every endpoint, in file order.
    public var endpoints: [Endpoint]

    public init(service: Service, domains: [Domain], types: [String: TypeDeclaration], endpoints: [Endpoint]) {
        self.service = service
        self.domains = domains
        self.types = types
        self.endpoints = endpoints
    }

    /// The endpoint with `id`, if any.
    public func endpoint(_ id: String) -> Endpoint? {
        endpoints.first { $0.id == id }
    }

    /// What `schema` is once its aliases are followed (`Phone` → `string`); a chain
    /// longer than 32 or ending in an undeclared name stops where it is.
    public func resolvedKind(of schema: Schema) -> Schema.Kind {
        var kind = schema.kind
        var hops = 0
        while case .reference(let name) = kind, let declaration = types[name], hops < 32 {
            kind = declaration.schema.kind
            hops += 1
        }
        return kind
    }
}

/// One domain file: its name, description and the names of what it declares.
public struct Domain: Sendable, Hashable {
    public var name: String
    public var file: String
    public var description: String?
    /// Type names in the order written.
    public var typeNames: [String]
    /// Endpoint ids in the order written.
    public var endpointIDs: [String]
    /// Where its name is written (`domain: signal`); the file's start for a domain the loader makes.
    public var location: SourceLocation

    public init(name: String, file: String, description: String? = nil, typeNames: [String], endpointIDs: [String],
                location: SourceLocation? = nil) {
        self.name = name
        self.file = file
        self.description = description
        self.typeNames = typeNames
        self.endpointIDs = endpointIDs
        self.location = location ?? SourceLocation(file: file, line: 1, column: 1)
    }
}

extension Contract {
    /// The ids of the endpoints that take no signature: every one when signing is off,
    /// else those the signing rule's `exempt` patterns name.
    public var unsignedEndpoints: Set<String> {
        let signing = service.signing
        return Set(endpoints.map(\.id).filter { id in !signing.isEnabled || signing.exempt.contains { EndpointPattern.matches($0, id) } })
    }
}
