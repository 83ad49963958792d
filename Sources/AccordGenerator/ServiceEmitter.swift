import AccordContract

/// Writes `Support/Service.swift`: the business codes as an open enum, the service's
/// settings and flows for the client, and `TokenIssuing` for responses that carry tokens.
struct ServiceEmitter {
    let contract: Contract
    let access: String

    func source(refreshTypes: (body: String?, response: String)?) -> String {
        var writer = SwiftWriter()
        let codes = contract.service.codes.sorted { $0.code < $1.code }
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
        writer.line()
        let service = contract.service
        writer.line("/// The service's settings and the flow each business code asks of a client.")
        writer.block("enum Service") { writer in
            writer.line("static let basePath = \(service.basePath.swiftLiteral)")
            writer.line("static let envelopeCode = \(service.envelope.code.swiftLiteral)")
            writer.line("static let envelopeMessage = \(service.envelope.message.swiftLiteral)")
            writer.line("static let envelopeData = \(service.envelope.data.swiftLiteral)")
            writer.line("static let appKeyHeader = \(service.signing.appKeyHeader.swiftLiteral)")
            writer.line("static let timestampHeader = \(service.signing.timestampHeader.swiftLiteral)")
            writer.line("static let nonceHeader = \(service.signing.nonceHeader.swiftLiteral)")
            writer.line("static let signatureHeader = \(service.signing.signatureHeader.swiftLiteral)")
            writer.line("static let authHeader = \(service.auth.header.swiftLiteral)")
            writer.line("static let authScheme = \(service.auth.scheme.swiftLiteral)")
            let refreshCodes = contract.endpoint(service.auth.refreshEndpoint)?.codes ?? []
            let logout = codes.first { $0.flow == .logout && refreshCodes.contains($0.code) } ?? codes.first { $0.flow == .logout }
            writer.line("/// What a refresh that fails without an answer ends the session with.")
            writer.line("static let refreshFailedCode = BusinessCode(rawValue: \(logout?.code ?? 0))")
            for (name, flow) in [("refreshesAndRetries", BusinessCode.Flow.refreshAndRetry), ("endsSession", .logout), ("bans", .ban), ("alerts", .alert)] {
                let members = codes.filter { $0.flow == flow }.map { String($0.code) }
                writer.line()
                writer.block("static func \(name)(_ code: BusinessCode) -> Bool") { writer in
                    writer.line(members.isEmpty ? "false" : "[\(members.joined(separator: ", "))].contains(code.rawValue)")
                }
            }
            if let refreshTypes, let body = refreshTypes.body, let endpoint = contract.endpoint(service.auth.refreshEndpoint) {
                writer.line()
                writer.line("/// The token refresh call.")
                writer.block("static func refresh(_ refreshToken: String) -> Endpoint<\(refreshTypes.response)>") { writer in
                    writer.line("API.\(Naming.property(endpoint.domain)).\(Naming.endpointFunction(endpoint.id, domain: endpoint.domain))(\(body)(refreshToken: refreshToken))")
                }
            }
        }
        for declaration in contract.types.values.sorted(by: { $0.name < $1.name }) where Self.carriesTokens(declaration.schema) {
            writer.line()
            writer.block("extension \(declaration.name): TokenIssuing") { writer in
                writer.line("\(access)var issuedTokens: Tokens { Tokens(accessToken: accessToken, refreshToken: refreshToken) }")
            }
        }
        return writer.text
    }

    /// An object with `access_token` and `refresh_token` strings.
    static func carriesTokens(_ schema: Schema) -> Bool {
        guard case .object(let fields) = schema.kind else { return false }
        let required = fields.filter { !$0.isOptional && $0.schema.kind == .primitive(.string) }.map(\.name)
        return required.contains("access_token") && required.contains("refresh_token")
    }
}
