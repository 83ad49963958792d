import AccordContract

/// Writes `Support/Service.swift`: the business codes as an open enum, the service's
/// settings and flows for the client, and `TokenIssuing` for responses that carry tokens.
struct ServiceEmitter {
    let contract: Contract
    let access: String

    func source(refreshTypes: (body: String?, response: String)?) -> String {
        var writer = SwiftWriter()
        let codes = contract.service.codes.sorted { $0.code < $1.code }
        writeCodes(codes, into: &writer)
        writer.line()
        writeService(codes: codes, refreshTypes: refreshTypes, into: &writer)
        writePayloads(into: &writer)
        writeTokenIssuing(into: &writer)
        return writer.text
    }

    /// `BusinessCode`: the code table as an open enum.
    private func writeCodes(_ codes: [BusinessCode], into writer: inout SwiftWriter) {
        writer.line("/// The business codes of the contract (`code` of the envelope).")
        writer.block("\(access)enum BusinessCode: RawRepresentable, Hashable, Sendable") { writer in
            for code in codes {
                writer.documentation("\(code.message) (\(code.code))" + (code.description.map { "\n\n\($0)" } ?? ""), remark: nil)
                writer.line("case \(Naming.property(code.name))")
            }
            writer.line("/// A code this version of the contract does not know.")
            writer.line("case unknown(Int)")
            writer.line()
            writer.block("\(access)init(rawValue: Int)") { writer in
                writer.switchBlock("rawValue") { writer in
                    for code in codes { writer.line("case \(code.code): self = .\(Naming.bare(Naming.property(code.name)))") }
                    writer.line("default: self = .unknown(rawValue)")
                }
            }
            writer.line()
            writer.block("\(access)var rawValue: Int") { writer in
                writer.switchBlock("self") { writer in
                    for code in codes { writer.line("case .\(Naming.bare(Naming.property(code.name))): \(code.code)") }
                    writer.line("case .unknown(let code): code")
                }
            }
        }
    }

    /// `Service`: the settings the client reads and the flow of each code.
    private func writeService(codes: [BusinessCode], refreshTypes: (body: String?, response: String)?, into writer: inout SwiftWriter) {
        let service = contract.service
        writer.line("/// The service's settings and the flow each business code asks of a client.")
        writer.block("enum Service") { writer in
            writer.line("static let basePath = \(service.basePath.swiftLiteral)")
            let envelope = service.envelope ?? Service.Envelope()
            writer.line("static let envelopeCode = \(envelope.code.swiftLiteral)")
            writer.line("static let envelopeMessage = \(envelope.message.swiftLiteral)")
            writer.line("static let envelopeData = \(envelope.data.swiftLiteral)")
            writer.line("static let appKeyHeader = \(service.signing.appKeyHeader.swiftLiteral)")
            writer.line("static let timestampHeader = \(service.signing.timestampHeader.swiftLiteral)")
            writer.line("static let nonceHeader = \(service.signing.nonceHeader.swiftLiteral)")
            writer.line("static let signatureHeader = \(service.signing.signatureHeader.swiftLiteral)")
            writer.line("static let authHeader = \(service.auth.header.swiftLiteral)")
            writer.line("static let authScheme = \(service.auth.scheme.swiftLiteral)")
            writer.line("/// What a refresh that fails without an answer ends the session with.")
            writer.line("static let refreshFailedCode = BusinessCode(rawValue: \(FlowCodes(service: service)[.refreshInvalid]))")
            writer.line("/// The codes the in-process mock answers its flows with, by their role.")
            let flowCodes = FlowCodes(service: service)
            for (name, role) in [("signatureInvalidCode", FlowCodes.Role.signatureInvalid), ("tokenExpiredCode", .tokenExpired),
                                 ("tokenInvalidCode", .tokenInvalid), ("forceLogoutCode", .forceLogout), ("bannedCode", .banned)] {
                writer.line("static let \(name) = BusinessCode(rawValue: \(flowCodes[role]))")
            }
            writer.line("/// The business-code messages of the table.")
            writer.block("static func message(_ code: BusinessCode) -> String") { writer in
                writer.switchBlock("code.rawValue") { writer in
                    for code in codes { writer.line("case \(code.code): \(code.message.swiftLiteral)") }
                    writer.line("default: \"\"")
                }
            }
            let apps = service.signing.apps.sorted { $0.key < $1.key }.map { "\($0.key.swiftLiteral): \($0.value.swiftLiteral)" }
            writer.line("/// The contract's app keys and secrets (development ones: the mock checks signatures with them).")
            writer.line("static let apps: [String: String] = [\(apps.isEmpty ? ":" : apps.joined(separator: ", "))]")
            writer.line("/// Endpoints that need no signature.")
            writer.line("static let unsignedEndpoints: Set<String> = [\(service.signing.exempt.map(\.swiftLiteral).joined(separator: ", "))]")
            writer.line("static let loginEndpoints: Set<String> = [\(service.auth.loginEndpoints.map(\.swiftLiteral).joined(separator: ", "))]")
            writer.line("static let refreshEndpoint = \(service.auth.refreshEndpoint.swiftLiteral)")
            for (name, flow) in [("refreshesAndRetries", BusinessCode.Flow.refreshAndRetry), ("endsSession", .logout), ("bans", .ban), ("alerts", .alert)] {
                let members = codes.filter { $0.flow == flow }.map { String($0.code) }
                writer.line()
                writer.block("static func \(name)(_ code: BusinessCode) -> Bool") { writer in
                    writer.line(members.isEmpty ? "false" : "[\(members.joined(separator: ", "))].contains(code.rawValue)")
                }
            }
            writer.line()
            writeRefresh(refreshTypes, into: &writer)
        }
    }

    /// `Service.refresh(_:)`: the token refresh call, or nil when the contract's cannot serve the client.
    private func writeRefresh(_ refreshTypes: (body: String?, response: String)?, into writer: inout SwiftWriter) {
        let service = contract.service
        if let refreshTypes, let body = refreshTypes.body, let endpoint = contract.endpoint(service.auth.refreshEndpoint),
           Self.refreshUnsupportedReason(contract) == nil {
            writer.line("/// The token refresh call.")
            writer.block("static func refresh(_ refreshToken: String) -> Endpoint<\(refreshTypes.response)>?") { writer in
                writer.line("API.\(Naming.property(endpoint.domain)).\(Naming.endpointFunction(endpoint.id, domain: endpoint.domain))(\(body)(refreshToken: refreshToken))")
            }
        } else {
            writer.line("/// The contract's refresh endpoint does not take `{refresh_token}` and answer tokens,")
            writer.line("/// so the client cannot refresh on its own: an expired token ends the session.")
            writer.block("static func refresh(_ refreshToken: String) -> Endpoint<Tokens>?") { writer in
                writer.line("nil")
            }
        }
    }

    /// `TokenIssuing` on every response type that carries a token pair.
    private func writeTokenIssuing(into writer: inout SwiftWriter) {
        var issuing = contract.types.values.filter { Self.carriesTokens($0.schema) }.map(\.name)
        issuing += inlineResponses.filter { Self.carriesTokens($0.schema) }.map(\.name)
        for name in Set(issuing).sorted() {
            writer.line()
            writer.block("extension \(name): TokenIssuing") { writer in
                writer.line("\(access)var issuedTokens: Tokens { Tokens(accessToken: accessToken, refreshToken: refreshToken) }")
            }
        }
    }

    /// `BanPayload`, the `data` of a ban as the code table declares it (``APIError/banned(_:)``
    /// carries it), and a typed accessor on `APIError` for every other code with a payload.
    private func writePayloads(into writer: inout SwiftWriter) {
        let translator = TypeTranslator(contract: contract)
        let models = ModelEmitter(access: access)
        var nested: [Declaration] = []
        let codes = contract.service.codes.sorted { $0.code < $1.code }
        let banCode = FlowCodes(service: contract.service)[.banned]
        let banned = codes.first { $0.code == banCode && $0.data != nil } ?? codes.first { $0.flow == .ban && $0.data != nil }
        writer.line()
        writer.line("/// The `data` of a ban answer, as the code table declares it" + (banned.map { " for \($0.code) (\($0.name))." } ?? "; it declares none."))
        let banType = banned?.data.map { translator.type(for: $0, suggestedName: "BanPayloadData", file: "service.yaml", nested: &nested) }
        writer.line("\(access)typealias BanPayload = \(banType ?? "AccordJSON")")
        let others = codes.filter { $0.data != nil && $0.code != banned?.code }
        if !others.isEmpty {
            writer.line()
            writer.block("extension APIError") { writer in
                for (index, code) in others.enumerated() {
                    guard let data = code.data else { continue }
                    let type = translator.type(for: data, suggestedName: Naming.type(code.name) + "Data", file: "service.yaml", nested: &nested)
                    if index > 0 { writer.line() }
                    writer.documentation("The `data` of \(code.code) (\(code.name)): nil for any other error, or when it cannot be read.", remark: nil)
                    writer.block("\(access)var \(Naming.property(code.name))Data: \(type)?") { writer in
                        writer.line("guard case .business(let code, _, _) = self, code.rawValue == \(code.code) else { return nil }")
                        writer.line("return payload(\(type).self)")
                    }
                }
            }
        }
        for declaration in nested {
            writer.line()
            models.write(declaration, into: &writer)
        }
    }

    /// Endpoints' inline response objects, with the names the generator gave them.
    var inlineResponses: [(name: String, schema: Schema)] = []

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
