import AccordContract
import AccordJSON
import AccordMocksFormat

/// `ClientConfiguration` as declarations: who the client is and where it calls, as the
/// contract needs it — the server, the app key and secret when it signs, the API key
/// when it takes one, one property per service-wide header (`X-Device-Id` → `deviceID`),
/// the timeout and retry policy — with a value of each for previews.
struct ConfigurationDeclaration: Sendable {
    /// A stored property of the configuration.
    struct Property: Sendable {
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

    var properties: [Property]
    /// The header the API key travels in, if it travels in one.
    var apiKeyHeader: String?
    /// The query parameter the API key travels in, if it travels in one.
    var apiKeyQuery: String?

    init(contract: Contract, naming: Naming) {
        let key = contract.service.auth.apiKey
        apiKeyHeader = key.flatMap { $0.location == .header ? $0.name : nil }
        apiKeyQuery = key.flatMap { $0.location == .query ? $0.name : nil }
        properties = Self.properties(contract: contract, naming: naming)
    }

    private static func properties(contract: Contract, naming: Naming) -> [Property] {
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
                name: propertyName(header: field.name, naming: naming), type: optional ? "String?" : "String",
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
    private static func propertyName(header: String, naming: Naming) -> String {
        let bare = header.lowercased().hasPrefix("x-") ? String(header.dropFirst(2)) : header
        return naming.property(bare.lowercased().replacingOccurrences(of: "-", with: "_"))
    }
}
