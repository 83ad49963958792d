import AccordContract
import AccordDiagnostics

/// Translates the service file into a ``ServiceDeclaration``, and says where the
/// generated client cannot follow it.
struct ServiceTranslator {
    let contract: Contract
    /// The generation's one type translator.
    let translator: TypeTranslator
    var naming: Naming { translator.naming }

    /// `messageTypes` are the endpoints' body and response types by id; `inlineResponses`
    /// the endpoints' inline response objects with the names they were given.
    func declaration(messageTypes: [String: EndpointTranslator.MessageTypes], inlineResponses: [(name: String, schema: Schema)],
                     diagnostics: inout [Diagnostic]) -> ServiceDeclaration {
        let service = contract.service
        let codes = service.codes.sorted { $0.code < $1.code }.map { entry in
            ServiceDeclaration.Code(entry: entry, caseName: naming.property(entry.name), isCanonical: service.code(entry.code) == entry)
        }
        let flowCodes = FlowCodes(service: service)
        var roleCodes: [FlowCodes.Role: String] = [:]
        for role in FlowCodes.Role.allCases {
            roleCodes[role] = flowCodes.entry(role).map { "BusinessCode.\(Naming.bare(naming.property($0.name)))" } ?? "BusinessCode(rawValue: \(flowCodes[role]))"
        }

        var nested: [Declaration] = []
        let entries = codes.map(\.entry)
        let banned = entries.first { $0.code == flowCodes[.banned] && $0.data != nil } ?? entries.first { $0.flow == .ban && $0.data != nil }
        let banType = banned?.data.map { translator.type(for: $0, suggestedName: "BanPayloadData", file: "service.yaml", nested: &nested) }
        let payloads = entries.filter { $0.data != nil && $0.code != banned?.code }.compactMap { code -> ServiceDeclaration.Payload? in
            guard let data = code.data else { return nil }
            let type = translator.type(for: data, suggestedName: naming.type(code.name) + "Data", file: "service.yaml", nested: &nested)
            return ServiceDeclaration.Payload(code: code, property: Naming.bare(naming.property(code.name)) + "Data", type: type)
        }

        var refresh: ServiceDeclaration.Refresh?
        if let reason = Self.refreshUnsupportedReason(contract) {
            if service.auth.refreshes {
                let location = contract.endpoint(service.auth.refreshEndpoint)?.location ?? service.location
                diagnostics.append(.warning("the generated client will not refresh tokens by itself: \(reason)", at: location))
            }
        } else if let endpoint = contract.endpoint(service.auth.refreshEndpoint), let types = messageTypes[endpoint.id], let body = types.body {
            let function = naming.endpointFunction(endpoint.id, domain: endpoint.domain)
            refresh = ServiceDeclaration.Refresh(responseType: types.response,
                                                 call: "API.\(naming.domainProperty(endpoint.domain)).\(function)(\(body)(refreshToken: refreshToken))")
        }

        var issuers = contract.types.values.filter { Self.carriesTokens($0.schema) }.map(\.name)
        issuers += inlineResponses.filter { Self.carriesTokens($0.schema) }.map(\.name)
        return ServiceDeclaration(codes: codes, roleCodes: roleCodes, banPayloadType: banType ?? "AccordJSON", banCode: banned,
                                  payloads: payloads, nested: nested, refresh: refresh, tokenIssuers: Set(issuers).sorted())
    }

    /// Why the client cannot refresh tokens by itself, or nil when it can: the refresh
    /// endpoint must take a body whose only required member is the `refresh_token`
    /// string, have no path parameters, and answer `access_token` and `refresh_token`.
    static func refreshUnsupportedReason(_ contract: Contract) -> String? {
        guard let endpoint = contract.endpoint(contract.service.auth.refreshEndpoint) else { return "there is no refresh endpoint" }
        func fields(_ schema: Schema?) -> [Field]? {
            var kind = schema?.kind
            var hops = 0
            while case .reference(let name)? = kind, hops < 32 { kind = contract.types[name]?.schema.kind; hops += 1 }
            if case .object(let fields)? = kind { return fields }
            return nil
        }
        guard endpoint.parameters.isEmpty else { return "'\(endpoint.id)' has path parameters" }
        guard let body = fields(endpoint.body), body.contains(where: { $0.name == "refresh_token" && $0.schema.kind == .primitive(.string) }),
              body.allSatisfy({ $0.name == "refresh_token" || $0.isOptional }) else {
            return "the body of '\(endpoint.id)' is not {refresh_token: string}"
        }
        guard let response = fields(endpoint.response), carriesTokens(Schema(.object(response), location: endpoint.location)) else {
            return "'\(endpoint.id)' does not answer access_token and refresh_token"
        }
        return nil
    }

    /// An object with `access_token` and `refresh_token` strings.
    static func carriesTokens(_ schema: Schema) -> Bool {
        guard case .object(let fields) = schema.kind else { return false }
        let required = fields.filter { !$0.isOptional && $0.schema.kind == .primitive(.string) }.map(\.name)
        return required.contains("access_token") && required.contains("refresh_token")
    }
}
