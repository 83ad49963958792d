/// The business codes the built-in flows answer with, resolved once from the code table.
///
/// The mock and the generated client never spell 1002 or 1008: they ask for the code
/// of a role (``Role/tokenExpired``, ``Role/banned``…) and get the number the contract
/// gives the code of that name, so a service that numbers its codes differently works
/// unchanged. A role the table does not name keeps its conventional number (the
/// repository's own table, `contracts/service.yaml`, uses them all).
public struct FlowCodes: Sendable, Hashable {
    /// What a code means to the server's own flows, by the code's name in the table.
    public enum Role: String, Sendable, Hashable, CaseIterable {
        case signatureInvalid = "signature-invalid"
        case tokenExpired = "token-expired"
        case timestampInvalid = "timestamp-invalid"
        case nonceReused = "nonce-reused"
        case tokenInvalid = "token-invalid"
        case forceLogout = "force-logout"
        case refreshInvalid = "refresh-invalid"
        case banned

        /// The HTTP status a plain API answers the role with when its table does not name it.
        public var conventionalStatus: Int {
            self == .banned ? 403 : 401
        }

        /// The role's conventional number, used when the table does not name it.
        public var conventionalCode: Int {
            switch self {
            case .signatureInvalid: 1001
            case .tokenExpired: 1002
            case .timestampInvalid: 1003
            case .nonceReused: 1004
            case .tokenInvalid: 1005
            case .forceLogout: 1006
            case .refreshInvalid: 1007
            case .banned: 1008
            }
        }
    }

    /// The code of a request that breaks the contract (`validation.violation_code`, or
    /// for a plain API the HTTP status `validation.status`).
    public let invalidRequest: Int
    private let codes: [Role: Int]
    /// The table's entry of each role it names.
    private let entries: [Role: BusinessCode]

    /// Resolves every role from `service`'s code table.
    public init(service: Service) {
        let plain = service.envelope == nil
        invalidRequest = plain ? service.validation.status : service.validation.violationCode
        var codes: [Role: Int] = [:]
        var entries: [Role: BusinessCode] = [:]
        for role in Role.allCases {
            // A plain API that names no 'token-invalid' answers a token the server dropped
            // (rotated by a refresh) as expired, so requests in flight with it are retried.
            let entry = service.code(named: role.rawValue)
                ?? (plain && role == .tokenInvalid ? service.code(named: Role.tokenExpired.rawValue) : nil)
            entries[role] = entry
            codes[role] = entry?.code ?? (plain ? role.conventionalStatus : role.conventionalCode)
        }
        self.codes = codes
        self.entries = entries
    }

    /// The table's entry for `role`, with its discriminator, when the table names it.
    public func entry(_ role: Role) -> BusinessCode? {
        entries[role]
    }

    /// The code the contract gives `role`.
    public subscript(role: Role) -> Int {
        codes[role] ?? role.conventionalCode
    }

    /// The codes any endpoint may answer, whatever it declares: the violation code and
    /// every role's.
    public var serviceCodes: Set<Int> {
        Set(Role.allCases.map { self[$0] } + [invalidRequest])
    }
}
