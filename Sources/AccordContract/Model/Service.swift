import AccordDiagnostics

/// The service-wide part of a contract: base path, envelope, signing, auth, headers
/// and the business-code table.
public struct Service: Sendable, Hashable {
    public var name: String
    public var title: String?
    public var version: String
    /// Prefix of every route, such as `/api/v1`.
    public var basePath: String
    public var envelope: Envelope
    public var signing: Signing
    public var auth: Auth
    /// Headers every request carries.
    public var headers: [Field]
    public var codes: [BusinessCode]
    public var validation: Validation
    /// Where the `service:` key was written.
    public var location: SourceLocation

    public init(
        name: String, title: String? = nil, version: String, basePath: String, envelope: Envelope = Envelope(),
        signing: Signing, auth: Auth, headers: [Field] = [], codes: [BusinessCode], validation: Validation = Validation(),
        location: SourceLocation
    ) {
        self.name = name
        self.title = title
        self.version = version
        self.basePath = basePath
        self.envelope = envelope
        self.signing = signing
        self.auth = auth
        self.headers = headers
        self.codes = codes
        self.validation = validation
        self.location = location
    }

    /// The code-table entry for `code`, if declared.
    public func code(_ code: Int) -> BusinessCode? {
        codes.first { $0.code == code }
    }
}

extension Service {
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

    /// Bearer-token authentication and the lifetimes of the tokens.
    public struct Auth: Sendable, Hashable {
        public var header: String
        public var scheme: String
        public var accessTTLSeconds: Int
        public var refreshTTLSeconds: Int
        /// The endpoint that rotates tokens.
        public var refreshEndpoint: String
        /// Endpoints that issue tokens.
        public var loginEndpoints: [String]
        /// Endpoint that revokes them.
        public var logoutEndpoint: String?

        public init(
            header: String = "Authorization", scheme: String = "Bearer", accessTTLSeconds: Int, refreshTTLSeconds: Int,
            refreshEndpoint: String, loginEndpoints: [String], logoutEndpoint: String? = nil
        ) {
            self.header = header
            self.scheme = scheme
            self.accessTTLSeconds = accessTTLSeconds
            self.refreshTTLSeconds = refreshTTLSeconds
            self.refreshEndpoint = refreshEndpoint
            self.loginEndpoints = loginEndpoints
            self.logoutEndpoint = logoutEndpoint
        }
    }

    /// How requests that break the contract are answered.
    public struct Validation: Sendable, Hashable {
        /// What to do with object members the contract does not declare.
        public enum UnknownMembers: String, Sendable, Hashable {
            case reject, ignore
        }

        public var unknownMembers: UnknownMembers
        /// The business code of a 400 answer listing violations.
        public var violationCode: Int

        public init(unknownMembers: UnknownMembers = .reject, violationCode: Int = 1000) {
            self.unknownMembers = unknownMembers
            self.violationCode = violationCode
        }
    }
}
