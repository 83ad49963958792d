import AccordContract

/// What the contract says each code makes a client do, and the endpoints the rules need
/// to know: the refresh, the logins, the logout, what a banned user may still call.
public struct FlowRules: Sendable {
    /// The flow each code of the table triggers (codes with flow `none` are left out).
    public var flows: [Int: BusinessCode.Flow]
    public var refresh: String?
    public var logins: Set<String>
    public var logout: String?
    /// Endpoints a banned user may still call: the logins, the logout and every public endpoint.
    public var allowedWhileBanned: Set<String>
    /// How long after an alert code the same call may not be sent again.
    public var alertWindowMicroseconds: Int64

    /// The default alert window: 2 s, in microseconds.
    public static let defaultAlertWindow: Int64 = 2_000_000

    public init(contract: Contract, alertWindowMicroseconds: Int64 = defaultAlertWindow) {
        let auth = contract.service.auth
        flows = Dictionary(contract.service.codes.filter { $0.flow != .none }.map { ($0.code, $0.flow) }, uniquingKeysWith: { first, _ in first })
        refresh = auth.refreshEndpoint.isEmpty ? nil : auth.refreshEndpoint
        logins = Set(auth.loginEndpoints)
        logout = auth.logoutEndpoint
        allowedWhileBanned = logins.union(auth.logoutEndpoint.map { [$0] } ?? []).union(contract.endpoints.filter { !$0.requiresAuth }.map(\.id))
        self.alertWindowMicroseconds = alertWindowMicroseconds
    }

    /// The flow `code` triggers; nil for success and for codes without one.
    func flow(of code: Int?) -> BusinessCode.Flow? {
        code.flatMap { flows[$0] }
    }

    /// Whether `observation` was answered as a success (code 0, or no code and no flow).
    func succeeded(_ observation: FlowObservation) -> Bool {
        observation.code == 0 || (observation.code == nil)
    }
}
