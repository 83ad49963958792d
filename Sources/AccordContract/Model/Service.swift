import AccordDiagnostics
import AccordJSON

/// The service-wide part of a contract: base path, envelope (or the plain style's
/// error bodies), signing, auth, headers and the code table.
public struct Service: Sendable, Hashable {
    public var name: String
    public var title: String?
    public var version: String
    /// Prefix of every route, such as `/api/v1`.
    public var basePath: String
    /// The `{code, msg, data}` wrapper of every answer, or nil for a plain REST API
    /// (`envelope: none`): a success is the response type itself, an error an HTTP
    /// status with an ``Errors`` body, and the code table is keyed by HTTP status.
    public var envelope: Envelope?
    /// How a plain API's errors are written; unused with an envelope.
    public var errors: Errors
    public var signing: Signing
    public var auth: Auth
    /// Headers every request carries.
    public var headers: [Field]
    public var codes: [BusinessCode]
    public var validation: Validation
    /// What the flow rules hold clients to beyond the code table, and the retry policy (`flows:`).
    public var flows: Flows
    /// How the generated Swift names things (`swift:`).
    public var swift: SwiftNaming = SwiftNaming()
    /// Where the `service:` key was written.
    public var location: SourceLocation

    public init(
        name: String, title: String? = nil, version: String, basePath: String, envelope: Envelope? = Envelope(),
        errors: Errors = Errors(), signing: Signing, auth: Auth, headers: [Field] = [], codes: [BusinessCode],
        validation: Validation = Validation(), swift: SwiftNaming = SwiftNaming(), location: SourceLocation, flows: Flows = Flows()
    ) {
        self.flows = flows
        self.swift = swift
        self.name = name
        self.title = title
        self.version = version
        self.basePath = basePath
        self.envelope = envelope
        self.errors = errors
        self.signing = signing
        self.auth = auth
        self.headers = headers
        self.codes = codes
        self.validation = validation
        self.location = location
    }

    /// The code-table entry for `code`, if declared: of a plain API's status with
    /// several entries, the one without a discriminator (else the first).
    public func code(_ code: Int) -> BusinessCode? {
        codes.first { $0.code == code && $0.discriminator == nil } ?? codes.first { $0.code == code }
    }

    /// The code-table entry named `name`.
    public func code(named name: String) -> BusinessCode? {
        codes.first { $0.name == name }
    }

    /// The code-table entry a plain API's error answer with `status` and `body` is:
    /// the entry whose discriminator the body carries, else the status's plain one.
    public func code(status: Int, body: JSONValue?) -> BusinessCode? {
        let entries = codes.filter { $0.code == status }
        return entries.first { entry in
            guard let discriminator = entry.discriminator, case .string(let value)? = body?[discriminator.member] else { return false }
            return value == discriminator.value
        } ?? entries.first { $0.discriminator == nil }
    }
}

extension Service {
    /// The service file's `swift:` section: what the generated Swift's names need to know.
    public struct SwiftNaming: Sendable, Hashable {
        /// Words written all in capitals in names, beside the generator's own (`kb` →
        /// `searchKB`, `KBArticle`), lower case as written in the contract.
        public var acronyms: [String]
        /// The enum every generated name is nested in (`Tongban` → `Tongban.API`), as
        /// `accord generate --namespace` would; nil for names at the top level.
        public var namespace: String?
        /// Where the namespace is written, for what the generator finds wrong with it.
        public var namespaceLocation: SourceLocation?

        public init(acronyms: [String] = [], namespace: String? = nil, namespaceLocation: SourceLocation? = nil) {
            self.acronyms = acronyms
            self.namespace = namespace
            self.namespaceLocation = namespaceLocation
        }

        /// Type names a contract's type cannot take in the generated Swift: Swift's and
        /// Foundation's, and those the generated client declares itself (`Envelope`,
        /// `Endpoint`, `APIClient`…). `accord generate` refuses such a type; `accord import
        /// openapi` names a schema of such a name `NameModel`.
        public static let reservedTypeNames: Set<String> = [
            "Any", "Array", "Bool", "Character", "Codable", "CodingKey", "Data", "Date", "Decimal", "Decodable", "Decoder", "Dictionary", "Double",
            "Encodable", "Encoder", "Equatable", "Error", "Float", "Hashable", "Identifiable", "Int", "Int64", "Never", "Optional", "Protocol",
            "Result", "Self", "Sendable", "Set", "String", "Type", "URL", "UUID", "Void",
            "API", "APIClient", "APIError", "APISending", "RetryPolicy", "AccordBinary", "AccordCodingKey", "AccordDate", "AccordDateTime", "AccordDecimal", "AccordEmpty",
            "AccordJSON", "AccordMembersDecoder", "AccordMembersEncoder", "AccordAPIClient", "AccordAPIError", "AccordAPISending", "AccordBusinessCode",
            "AccordClientConfiguration", "AccordClientEvent", "AccordContractService", "AccordMockAPIClient", "AccordMockTransport",
            "BanPayload", "BusinessCode", "CancellableWait", "CanonicalJSON", "ClientConfiguration", "ClientEvent", "Endpoint", "Envelope", "ErrorMembers",
            "AccordIndirect", "AccordOpenEnum", "EventBroadcast", "FilePart", "FixtureName", "HTTPMethod", "InMemoryTokenStorage", "KeychainTokenStorage", "MockAPIClient", "MockRoute", "MockTransport",
            "MultipartBody", "OnceGate", "PortableMD5", "QueryItem", "ReceivedRequest", "RequestSigner", "ServerSentEvent", "ServerSentEventParser", "Service", "SessionExchange", "StreamEndpoint",
            "StreamingTask", "StringCodable", "TokenIssuing", "TokenStorage", "Tokens", "Transport", "URLSessionTransport",
        ]
    }

    /// The member names of the response envelope `{code, msg, data}`.
    public struct Envelope: Sendable, Hashable {
        public var code: String
        public var message: String
        public var data: String

        public init(code: String = "code", message: String = "msg", data: String = "data") {
            self.code = code
            self.message = message
            self.data = data
        }
    }

    /// How requests are signed: the rule AccordSigning checks and signs by.
    public typealias Signing = SigningRule

    /// A plain API's error answers: their media type and the body type every error
    /// status carries unless its code-table entry declares its own (`data`).
    public struct Errors: Sendable, Hashable {
        /// `application/problem+json` (RFC 9457) unless the contract says otherwise.
        public var mediaType: String
        /// The declared error body, such as a `Problem` type.
        public var body: Schema?

        public init(mediaType: String = "application/problem+json", body: Schema? = nil) {
            self.mediaType = mediaType
            self.body = body
        }
    }

    /// How requests prove who sends them: nothing, a bearer token (issued by the login
    /// endpoints and rotated by the refresh endpoint, when the contract has them) or an
    /// API key in a header or query parameter. Endpoints written `auth: none` need none.
    public struct Auth: Sendable, Hashable {
        /// The kind of credential.
        public enum Kind: Sendable, Hashable {
            /// No credential; every endpoint is public.
            case none
            /// `Authorization: Bearer <token>`.
            case bearer
            /// A key the contract declares, in a header or a query parameter.
            case apiKey(APIKey)
        }

        /// An API key: where it travels and the keys the mock accepts.
        public struct APIKey: Sendable, Hashable {
            /// Where the key travels.
            public enum Location: String, Sendable, Hashable {
                case header, query
            }

            public var location: Location
            /// The header or query parameter's name.
            public var name: String
            /// The keys a request may carry (development keys: the mock accepts these).
            public var keys: [String]

            public init(location: Location, name: String, keys: [String]) {
                self.location = location
                self.name = name
                self.keys = keys
            }
        }

        public var kind: Kind
        public var header: String
        public var scheme: String
        public var accessTTLSeconds: Int
        public var refreshTTLSeconds: Int
        /// The endpoint that rotates tokens; empty when tokens are not refreshed.
        public var refreshEndpoint: String
        /// Endpoints that issue tokens.
        public var loginEndpoints: [String]
        /// Endpoint that revokes them.
        public var logoutEndpoint: String?

        public init(
            kind: Kind = .bearer, header: String = "Authorization", scheme: String = "Bearer", accessTTLSeconds: Int = 7_200,
            refreshTTLSeconds: Int = 2_592_000, refreshEndpoint: String = "", loginEndpoints: [String] = [], logoutEndpoint: String? = nil
        ) {
            self.kind = kind
            self.header = header
            self.scheme = scheme
            self.accessTTLSeconds = accessTTLSeconds
            self.refreshTTLSeconds = refreshTTLSeconds
            self.refreshEndpoint = refreshEndpoint
            self.loginEndpoints = loginEndpoints
            self.logoutEndpoint = logoutEndpoint
        }

        /// No auth section: every endpoint is public.
        public static let none = Auth(kind: .none)

        /// Whether requests carry bearer tokens.
        public var usesTokens: Bool { kind == .bearer }

        /// Whether the contract refreshes tokens (it names a refresh endpoint).
        public var refreshes: Bool { !refreshEndpoint.isEmpty }

        /// The API key's settings, for the key kind.
        public var apiKey: APIKey? {
            if case .apiKey(let key) = kind { key } else { nil }
        }
    }

    /// How requests that break the contract are answered.
    public struct Validation: Sendable, Hashable {
        /// What to do with object members the contract does not declare.
        public enum UnknownMembers: String, Sendable, Hashable {
            case reject, ignore
        }

        public var unknownMembers: UnknownMembers
        /// The business code of a 400 answer listing violations (in an envelope).
        public var violationCode: Int
        /// The HTTP status of a plain API's answer listing violations: 400 or 422.
        public var status: Int

        public init(unknownMembers: UnknownMembers = .reject, violationCode: Int = 1000, status: Int = 400) {
            self.unknownMembers = unknownMembers
            self.violationCode = violationCode
            self.status = status
        }
    }
}
