import AccordContract

/// Writes `Support/Service.swift`: the business codes as an open enum, the service's
/// settings and flows for the client, and `TokenIssuing` for responses that carry tokens.
struct ServiceRenderer {
    /// The contract whose service settings are written as they are.
    let contract: Contract
    /// `public ` or the empty string (internal).
    let access: String
    let declaration: ServiceDeclaration

    func source() -> String {
        var writer = SwiftWriter()
        let codes = declaration.codes
        writeCodes(codes, into: &writer)
        writer.line()
        writeService(codes: codes, into: &writer)
        writeRuntimeNames(into: &writer)
        writeRetryPolicy(into: &writer)
        writePayloads(into: &writer)
        writeTokenIssuing(into: &writer)
        return writer.text
    }

    /// The runtime's generic types for this contract, under the names an app uses.
    private func writeRuntimeNames(into writer: inout SwiftWriter) {
        writer.line()
        writer.line("/// Calls the API for this contract (``AccordAPIClient``).")
        writer.line("\(access)typealias APIClient = AccordAPIClient<Service>")
        writer.line("/// Why a call failed (``AccordAPIError``).")
        writer.line("\(access)typealias APIError = AccordAPIError<Service>")
        writer.line("/// What the app is told outside any one call (``AccordClientEvent``).")
        writer.line("\(access)typealias ClientEvent = AccordClientEvent<Service>")
        writer.line("/// What a view model needs of the API (``AccordAPISending``).")
        writer.line("\(access)typealias APISending = AccordAPISending<Service>")
        writer.line("/// An `APISending` for unit tests (``AccordMockAPIClient``).")
        writer.line("\(access)typealias MockAPIClient = AccordMockAPIClient<Service>")
        writer.line("/// A transport that answers in process from the fixtures (``AccordMockTransport``).")
        writer.line("\(access)typealias MockTransport = AccordMockTransport<Service>")
    }

    /// `BusinessCode`: the code table as an open enum. A plain API's statuses with several
    /// entries have a case each; `init(rawValue:)` gives the status's entry without `when`.
    private func writeCodes(_ codes: [ServiceDeclaration.Code], into writer: inout SwiftWriter) {
        writer.line(contract.service.envelope == nil
            ? "/// The error codes of the contract: HTTP statuses, told apart by a member of the error body where one has several."
            : "/// The business codes of the contract (`code` of the envelope).")
        writer.block("\(access)enum BusinessCode: RawRepresentable, Hashable, Sendable, AccordBusinessCode") { writer in
            for code in codes {
                let entry = code.entry
                writer.documentation("\(entry.message) (\(entry.code))" + (entry.description.map { "\n\n\($0)" } ?? ""), remark: nil)
                writer.line("case \(code.caseName)")
            }
            writer.line("/// A code this version of the contract does not know.")
            writer.line("case unknown(Int)")
            writer.line()
            writer.block("\(access)init(rawValue: Int)") { writer in
                writer.switchBlock("rawValue") { writer in
                    for code in codes where code.isCanonical {
                        writer.line("case \(code.entry.code): self = .\(Naming.bare(code.caseName))")
                    }
                    writer.line("default: self = .unknown(rawValue)")
                }
            }
            writer.line()
            writer.block("\(access)var rawValue: Int") { writer in
                writer.switchBlock("self") { writer in
                    for code in codes { writer.line("case .\(Naming.bare(code.caseName)): return \(code.entry.code)") }
                    writer.line("case .unknown(let code): return code")
                }
            }
            // Entries that share a status share a raw value, which RawRepresentable's `==` and
            // `hash(into:)` would compare: these compare the entries.
            guard Set(codes.map(\.entry.code)).count < codes.count else { return }
            writer.line()
            writer.line("/// Whether two codes are the same entry of the table (a status's entries share its raw value).")
            writer.block("\(access)static func == (lhs: BusinessCode, rhs: BusinessCode) -> Bool") { writer in
                writer.line("lhs.entry == rhs.entry")
            }
            writer.line()
            writer.block("\(access)func hash(into hasher: inout Hasher)") { writer in
                writer.line("hasher.combine(entry)")
            }
            writer.line()
            writer.line("/// The entry's name in the table, or the number of a code it does not know.")
            writer.block("private var entry: String") { writer in
                writer.switchBlock("self") { writer in
                    for code in codes { writer.line("case .\(Naming.bare(code.caseName)): \(code.entry.name.swiftLiteral)") }
                    writer.line("case .unknown(let code): String(code)")
                }
            }
        }
    }

    /// `Service`: the settings the client reads and the flow of each code.
    private func writeService(codes: [ServiceDeclaration.Code], into writer: inout SwiftWriter) {
        let service = contract.service
        writer.line("/// The service's settings and the flow each business code asks of a client.")
        writer.block("\(access)enum Service: AccordContractService") { writer in
            writer.line("\(access)typealias Code = BusinessCode")
            writer.line("\(access)typealias BanPayload = \(declaration.banPayloadType)")
            writer.line("\(access)typealias Configuration = ClientConfiguration")
            writer.line("\(access)typealias RefreshResponse = \(declaration.refresh?.responseType ?? "Tokens")")
            writer.line()
            writer.line("\(access)static let basePath = \(service.basePath.swiftLiteral)")
            writer.line("/// Whether every answer is an envelope; without one, an error is an HTTP status.")
            writer.line("\(access)static let usesEnvelope = \(service.envelope != nil)")
            let envelope = service.envelope ?? Service.Envelope()
            writer.line("\(access)static let envelopeCode = \(envelope.code.swiftLiteral)")
            writer.line("\(access)static let envelopeMessage = \(envelope.message.swiftLiteral)")
            writer.line("\(access)static let envelopeData = \(envelope.data.swiftLiteral)")
            writer.line("/// The media type of a plain API's error answers.")
            writer.line("\(access)static let errorMediaType = \(service.errors.mediaType.swiftLiteral)")
            writeCredentials(into: &writer)
            writer.line("/// What a refresh that fails without an answer ends the session with.")
            writer.line("\(access)static let refreshFailedCode = \(declaration.roleCodes[.refreshInvalid] ?? "")")
            writer.line("/// The codes the in-process mock answers its flows with, by their role.")
            for (name, role) in [("signatureInvalidCode", FlowCodes.Role.signatureInvalid), ("tokenExpiredCode", .tokenExpired),
                                 ("tokenInvalidCode", .tokenInvalid), ("forceLogoutCode", .forceLogout), ("bannedCode", .banned)]
                where role != .signatureInvalid || service.signing.isEnabled {
                writer.line("\(access)static let \(name) = \(declaration.roleCodes[role] ?? "")")
            }
            writer.line("/// The business-code messages of the table.")
            writer.block("\(access)static func message(_ code: BusinessCode) -> String") { writer in
                writer.switchBlock("code") { writer in
                    for code in codes { writer.line("case .\(Naming.bare(code.caseName)): \(code.entry.message.swiftLiteral)") }
                    writer.line("case .unknown: \"\"")
                }
            }
            writeErrorCodes(codes, into: &writer)
            if service.signing.isEnabled {
                let apps = service.signing.apps.sorted { $0.key < $1.key }.map { "\($0.key.swiftLiteral): \($0.value.swiftLiteral)" }
                writer.line("/// The contract's app keys and secrets (development ones: the mock checks signatures with them).")
                writer.line("\(access)static let apps: [String: String] = [\(apps.isEmpty ? ":" : apps.joined(separator: ", "))]")
                writer.line("/// Endpoints that need no signature.")
                writer.line("\(access)static let unsignedEndpoints: Set<String> = [\(service.signing.exempt.map(\.swiftLiteral).joined(separator: ", "))]")
            }
            writer.line("\(access)static let loginEndpoints: Set<String> = [\(service.auth.loginEndpoints.map(\.swiftLiteral).joined(separator: ", "))]")
            writer.line("\(access)static let refreshEndpoint = \(service.auth.refreshEndpoint.swiftLiteral)")
            writer.line("/// Every endpoint with its typed fixtures, for the in-process mock.")
            writer.line("\(access)static var mockRoutes: [MockRoute] { API.mockRoutes }")
            for (name, flow) in [("refreshesAndRetries", BusinessCode.Flow.refreshAndRetry), ("endsSession", .logout), ("bans", .ban), ("alerts", .alert)] {
                let members = codes.filter { $0.entry.flow == flow }.map { ".\(Naming.bare($0.caseName))" }
                writer.line()
                writer.block("\(access)static func \(name)(_ code: BusinessCode) -> Bool") { writer in
                    writer.line(members.isEmpty ? "false" : "[\(members.joined(separator: ", "))].contains(code)")
                }
            }
            writer.line()
            writeRefresh(into: &writer)
        }
    }

    /// The signing headers (when the contract signs), the bearer token's header and
    /// scheme, and where the API key travels.
    private func writeCredentials(into writer: inout SwiftWriter) {
        let service = contract.service
        if service.signing.isEnabled {
            writer.line("\(access)static let appKeyHeader = \(service.signing.appKeyHeader.swiftLiteral)")
            writer.line("\(access)static let timestampHeader = \(service.signing.timestampHeader.swiftLiteral)")
            writer.line("\(access)static let nonceHeader = \(service.signing.nonceHeader.swiftLiteral)")
            writer.line("\(access)static let signatureHeader = \(service.signing.signatureHeader.swiftLiteral)")
        }
        writer.line("/// Whether requests carry bearer tokens that the login endpoints issue.")
        writer.line("\(access)static let usesTokens = \(service.auth.usesTokens)")
        writer.line("\(access)static let authHeader = \(service.auth.header.swiftLiteral)")
        writer.line("\(access)static let authScheme = \(service.auth.scheme.swiftLiteral)")
        let key = service.auth.apiKey
        writer.line("/// Where the API key travels, if the contract has one, and the development keys it declares.")
        writer.line("\(access)static let apiKeyHeader: String? = \(key.flatMap { $0.location == .header ? $0.name.swiftLiteral : nil } ?? "nil")")
        writer.line("\(access)static let apiKeyQuery: String? = \(key.flatMap { $0.location == .query ? $0.name.swiftLiteral : nil } ?? "nil")")
        writer.line("\(access)static let apiKeys: Set<String> = [\((key?.keys ?? []).map(\.swiftLiteral).joined(separator: ", "))]")
    }

    /// `errorCode(status:body:)`, which reads a plain API's error status (and the member
    /// that tells its entries apart) as its code, and `discriminator(_:)`, its inverse.
    private func writeErrorCodes(_ codes: [ServiceDeclaration.Code], into writer: inout SwiftWriter) {
        let plain = contract.service.envelope == nil
        writer.line(plain ? "/// The code of an error answer: its status, and the member of its body that tells the status's entries apart."
                          : "/// An envelope carries its code in the body: no status is a code by itself.")
        writer.block("\(access)static func errorCode(status: Int, body: Data) -> BusinessCode?") { writer in
            guard plain else { writer.line("nil"); return }
            if codes.contains(where: { $0.entry.discriminator != nil }) { writer.line("let members = ErrorMembers(body).texts") }
            writer.switchBlock("status") { writer in
                for status in Set(codes.map(\.entry.code)).sorted() {
                    let entries = codes.filter { $0.entry.code == status }
                    let marked = entries.filter { $0.entry.discriminator != nil }
                    let fallback = entries.first { $0.entry.discriminator == nil }.map { ".\(Naming.bare($0.caseName))" } ?? "BusinessCode.unknown(status)"
                    if marked.isEmpty {
                        writer.line("case \(status): return \(fallback)")
                        continue
                    }
                    writer.line("case \(status):")
                    for code in marked {
                        guard let discriminator = code.entry.discriminator else { continue }
                        writer.line("    if members[\(discriminator.member.swiftLiteral)] == \(discriminator.value.swiftLiteral) { return .\(Naming.bare(code.caseName)) }")
                    }
                    writer.line("    return \(fallback)")
                }
                // A status the table does not list is `APIError.http`: a 5xx of a proxy or a crashed backend is then a fault the retry policy retries.
                writer.line("default: return nil")
            }
        }
        writer.line("/// The member of the error body, and its value, that marks `code` (a plain API's entry with `when`).")
        writer.block("\(access)static func discriminator(_ code: BusinessCode) -> (member: String, value: String)?") { writer in
            let marked = codes.filter { $0.entry.discriminator != nil }
            guard !marked.isEmpty else { writer.line("nil"); return }
            writer.switchBlock("code") { writer in
                for code in marked {
                    guard let discriminator = code.entry.discriminator else { continue }
                    writer.line("case .\(Naming.bare(code.caseName)): (\(discriminator.member.swiftLiteral), \(discriminator.value.swiftLiteral))")
                }
                writer.line("default: nil")
            }
        }
    }

    /// `Service.refresh(_:)`: the token refresh call, or nil when the contract's cannot serve the client.
    private func writeRefresh(into writer: inout SwiftWriter) {
        if let refresh = declaration.refresh {
            writer.line("/// The token refresh call.")
            writer.block("\(access)static func refresh(_ refreshToken: String) -> Endpoint<\(refresh.responseType)>?") { writer in
                writer.line(refresh.call)
            }
        } else {
            writer.line("/// The contract's refresh endpoint does not take `{refresh_token}` and answer tokens,")
            writer.line("/// so the client cannot refresh on its own: an expired token ends the session.")
            writer.block("\(access)static func refresh(_ refreshToken: String) -> Endpoint<Tokens>?") { writer in
                writer.line("nil")
            }
        }
    }

    /// `TokenIssuing` on every response type that carries a token pair.
    private func writeTokenIssuing(into writer: inout SwiftWriter) {
        for name in declaration.tokenIssuers {
            writer.line()
            writer.block("extension \(name): TokenIssuing") { writer in
                writer.line("\(access)var issuedTokens: Tokens { Tokens(accessToken: accessToken, refreshToken: refreshToken) }")
            }
        }
    }

    /// `BanPayload`, the `data` of a ban as the code table declares it (``APIError/banned(_:)``
    /// carries it), and a typed accessor on `APIError` for every other code with a payload.
    private func writePayloads(into writer: inout SwiftWriter) {
        writer.line()
        writer.line("/// The `data` of a ban answer, as the code table declares it"
                    + (declaration.banCode.map { " for \($0.code) (\($0.name))." } ?? "; it declares none."))
        writer.line("\(access)typealias BanPayload = \(declaration.banPayloadType)")
        if !declaration.payloads.isEmpty {
            writer.line()
            writer.block("extension APIError") { writer in
                for (index, payload) in declaration.payloads.enumerated() {
                    if index > 0 { writer.line() }
                    writer.documentation("The `data` of \(payload.code.code) (\(payload.code.name)): nil for any other error, or when it cannot be read.",
                                         remark: nil)
                    writer.block("\(access)var \(payload.property): \(payload.type)?") { writer in
                        writer.line("guard case .business(let code, _, _) = self, code.rawValue == \(payload.code.code) else { return nil }")
                        writer.line("return payload(\(payload.type).self)")
                    }
                }
            }
        }
        let models = ModelRenderer(access: access)
        for declaration in declaration.nested {
            writer.line()
            models.write(declaration, into: &writer)
        }
    }
}
