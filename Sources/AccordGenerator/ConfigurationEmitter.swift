import AccordContract
import AccordJSON
import AccordMocksFormat

/// Writes `Support/ClientConfiguration.swift`: who the client is and where it calls, as
/// the contract needs it — the server, the app key and secret when it signs, the API
/// key when it takes one, one property per service-wide header (`X-Device-Id` →
/// `deviceID`), the timeout — and `ClientConfiguration.preview` for ``MockTransport``.
struct ConfigurationEmitter {
    let contract: Contract
    let access: String
    let naming: Naming

    /// A stored property of the configuration.
    private struct Property {
        var name: String
        var type: String
        /// The initializer's default, in Swift, if it has one.
        var defaultValue: String?
        var documentation: String
        /// The header it is sent as, for a service header.
        var header: String?
        /// A value for previews.
        var preview: String
    }

    func source() -> String {
        let properties = self.properties
        var writer = SwiftWriter()
        writer.line("/// Who the client is, and where it calls.")
        writer.block("\(access)struct ClientConfiguration: Sendable") { writer in
            for property in properties {
                writer.documentation(property.documentation, remark: nil)
                writer.line("\(access)var \(property.name): \(property.type)")
            }
            writer.line()
            let parameters = properties.map { "\($0.name): \($0.type)" + ($0.defaultValue.map { " = \($0)" } ?? "") }
            writer.block("\(access)init(\(parameters.joined(separator: ", ")))") { writer in
                for property in properties { writer.line("self.\(property.name) = \(property.name)") }
            }
            writer.line()
            writer.line("/// The service-wide headers, and the API key when `requiresAuth` and it travels in a header.")
            writer.block("func headers(requiresAuth: Bool) -> [(String, String)]") { writer in
                let headers = properties.filter { $0.header != nil }
                let optional = headers.filter { $0.type.hasSuffix("?") }
                writer.line("\(optional.isEmpty && apiKeyHeader == nil ? "let" : "var") headers: [(String, String)] = [\(headers.filter { !$0.type.hasSuffix("?") }.map { "(\($0.header!.swiftLiteral), \($0.name))" }.joined(separator: ", "))]")
                for property in optional { writer.line("if let \(property.name) { headers.append((\(property.header!.swiftLiteral), \(property.name))) }") }
                if let apiKeyHeader { writer.line("if requiresAuth { headers.append((\(apiKeyHeader.swiftLiteral), apiKey)) }") }
                writer.line("return headers")
            }
            writer.line()
            writer.line("/// The API key when `requiresAuth` and it travels in the query.")
            writer.block("func queryItems(requiresAuth: Bool) -> [QueryItem]") { writer in
                if let apiKeyQuery {
                    writer.line("requiresAuth ? [QueryItem(name: \(apiKeyQuery.swiftLiteral), value: apiKey)] : []")
                } else {
                    writer.line("[]")
                }
            }
        }
        writer.line()
        writer.block("extension ClientConfiguration") { writer in
            writer.line("/// For previews and tests over ``MockTransport``: the contract's development credentials and a server that is never called.")
            writer.block("\(access)static var preview: ClientConfiguration") { writer in
                let arguments = properties.filter { $0.defaultValue == nil }.map { "\($0.name): \($0.preview)" }
                writer.line("ClientConfiguration(\(arguments.joined(separator: ", ")))")
            }
        }
        return writer.text
    }

    private var apiKeyHeader: String? {
        contract.service.auth.apiKey.flatMap { $0.location == .header ? $0.name : nil }
    }

    private var apiKeyQuery: String? {
        contract.service.auth.apiKey.flatMap { $0.location == .query ? $0.name : nil }
    }

    private var properties: [Property] {
        let service = contract.service
        var properties = [Property(name: "serverURL", type: "URL", documentation: "The server, such as `https://api.example.com` (the base path is added).",
                                   preview: #"URL(fixture: "https://mock.invalid")"#)]
        if service.signing.isEnabled {
            let app = service.signing.apps.sorted { $0.key < $1.key }.first
            properties.append(Property(name: "appKey", type: "String", documentation: "The app key requests are signed with.",
                                       preview: (app?.key ?? "").swiftLiteral))
            properties.append(Property(name: "appSecret", type: "String", documentation: "Its secret.", preview: (app?.value ?? "").swiftLiteral))
        }
        if let key = service.auth.apiKey {
            properties.append(Property(name: "apiKey", type: "String", documentation: "The API key, sent in the \(key.location.rawValue) `\(key.name)`.",
                                       preview: (key.keys.first ?? "").swiftLiteral))
        }
        let values = ResponseGenerator(types: contract.types)
        for field in service.headers {
            let defaultText: String? = if case .string(let text)? = field.schema.defaultValue?.value { text } else { nil }
            let optional = field.isOptional
            let sample: String = if case .string(let text) = values.value(for: field.schema) { text } else { "preview" }
            properties.append(Property(
                name: propertyName(header: field.name), type: optional ? "String?" : "String",
                defaultValue: optional ? "nil" : defaultText?.swiftLiteral,
                documentation: "`\(field.name)`" + (field.schema.description.map { ": \($0)" } ?? "."),
                header: field.name, preview: sample.swiftLiteral))
        }
        properties.append(Property(name: "timeout", type: "TimeInterval", defaultValue: "30", documentation: "Seconds before a call gives up.",
                                   preview: "30"))
        properties.append(Property(name: "retryPolicy", type: "RetryPolicy", defaultValue: ".contract",
                                   documentation: "How a call that met a fault is retried: the contract's policy, or `.never`.", preview: ".contract"))
        return properties
    }

    /// `X-Device-Id` → `deviceID`, `X-App-Version` → `appVersion`, `Accept-Language` → `acceptLanguage`.
    func propertyName(header: String) -> String {
        let bare = header.lowercased().hasPrefix("x-") ? String(header.dropFirst(2)) : header
        return naming.property(bare.lowercased().replacingOccurrences(of: "-", with: "_"))
    }
}
