import AccordContract
import AccordJSON

/// `x-accord-service`: what the service file says that OpenAPI has no words for (the envelope, signing,
/// the auth endpoints, the service headers, validation, the Swift acronyms, the whole code table), in the contract's own
/// spelling, so `accord import openapi` gives back the service file this document was written from.
/// The signing apps are the contract's development keys and travel with it.
extension OpenAPIDocument {
    var accordExtensions: [JSONValue.Member] {
        let service = contract.service
        var members: [JSONValue.Member] = [.init("name", .string(service.name))]
        if let envelope = service.envelope {
            members.append(.init("envelope", .object([.init("code", .string(envelope.code)), .init("msg", .string(envelope.message)),
                                                      .init("data", .string(envelope.data))])))
        } else {
            var errors: [JSONValue.Member] = [.init("media_type", .string(service.errors.mediaType))]
            if let body = service.errors.body { errors.append(.init("body", .string(schemas.describe(body)))) }
            members.append(.init("errors", .object(errors)))
        }
        if service.signing.isEnabled { members.append(.init("signing", signing)) }
        if let auth { members.append(.init("auth", auth)) }
        if !service.headers.isEmpty { members.append(.init("headers", .array(service.headers.map { .string($0.name) }))) }
        members.append(.init("validation", .object([
            .init("unknown_members", .string(service.validation.unknownMembers.rawValue)),
            service.envelope == nil ? .init("status", .int(service.validation.status)) : .init("violation_code", .int(service.validation.violationCode)),
        ])))
        var swift: [JSONValue.Member] = []
        if !service.swift.acronyms.isEmpty { swift.append(.init("acronyms", .array(service.swift.acronyms.map(JSONValue.string)))) }
        if let namespace = service.swift.namespace { swift.append(.init("namespace", .string(namespace))) }
        if !swift.isEmpty { members.append(.init("swift", .object(swift))) }
        members.append(.init("codes", .array(service.codes.map(entry))))
        return [.init("x-accord-service", .object(members))]
    }

    private var signing: JSONValue {
        let signing = contract.service.signing
        return .object([
            .init("algorithm", .string(signing.algorithm.rawValue)), .init("parts", .array(signing.parts.map { .string($0.rawValue) })),
            .init("apps", .object(signing.apps.keys.sorted().map { .init($0, .string(signing.apps[$0] ?? "")) })),
            .init("headers", .object([.init("app_key", .string(signing.appKeyHeader)), .init("timestamp", .string(signing.timestampHeader)),
                                      .init("nonce", .string(signing.nonceHeader)), .init("sign", .string(signing.signatureHeader))])),
            .init("window", .string("\(signing.windowSeconds)s")), .init("nonce_ttl", .string("\(signing.nonceTTLSeconds)s")),
            .init("exempt", .array(signing.exempt.map(JSONValue.string))),
        ])
    }

    private var auth: JSONValue? {
        let auth = contract.service.auth
        switch auth.kind {
        case .none: return nil
        case .apiKey(let key):
            return .object([.init("api_key", .object([.init(key.location.rawValue, .string(key.name)), .init("keys", .array(key.keys.map(JSONValue.string)))]))])
        case .bearer:
            var members: [JSONValue.Member] = [.init("header", .string(auth.header)), .init("scheme", .string(auth.scheme))]
            guard !auth.loginEndpoints.isEmpty else { return .object(members) }
            members += [.init("access_ttl", .string("\(auth.accessTTLSeconds)s")), .init("refresh_ttl", .string("\(auth.refreshTTLSeconds)s"))]
            if auth.refreshes { members.append(.init("refresh", .string(auth.refreshEndpoint))) }
            members.append(.init("login", .array(auth.loginEndpoints.map(JSONValue.string))))
            if let logout = auth.logoutEndpoint { members.append(.init("logout", .string(logout))) }
            return .object(members)
        }
    }

    /// The endpoint's examples whole (`params`, `query`, `body`, `code`, `response`), as the contract writes them:
    /// OpenAPI's media examples hold a body or a success answer only.
    func accordExamples(_ endpoint: Endpoint) -> JSONValue {
        .object(endpoint.examples.map { example in
            var members: [JSONValue.Member] = []
            if let value = example.parameters?.value { members.append(.init("params", value)) }
            if let value = example.query?.value { members.append(.init("query", value)) }
            if let value = example.body?.value { members.append(.init("body", value)) }
            if example.code != 0 { members.append(.init("code", .int(example.code))) }
            if let value = example.response?.value { members.append(.init("response", value)) }
            return .init(example.name, .object(members))
        })
    }

    private func entry(_ code: BusinessCode) -> JSONValue {
        var entry: [JSONValue.Member] = [.init("code", .int(code.code)), .init("name", .string(code.name)), .init("msg", .string(code.message))]
        if code.flow != .none { entry.append(.init("flow", .string(code.flow.rawValue))) }
        if contract.service.envelope != nil { entry.append(.init("http", .int(code.httpStatus))) }
        if let discriminator = code.discriminator { entry.append(.init("when", .object([.init(discriminator.member, .string(discriminator.value))]))) }
        if let data = code.data { entry.append(.init("data", .string(schemas.describe(data)))) }
        if let description = code.description { entry.append(.init("description", .string(description))) }
        return .object(entry)
    }
}
