import AccordContract

/// What the contract says each code makes a client do, and the endpoints the rules need
/// to know: the refresh, the logins, the logout, what a banned user may still call.
public struct FlowRules: Sendable {
    /// The flow each code of the table triggers (codes with flow `none` are left out).
    public var flows: [Int: CheckedFlow]
    public var refresh: String?
    public var logins: Set<String>
    public var logout: String?
    /// Endpoints a banned user may still call: the logins, the logout and every public endpoint.
    public var allowedWhileBanned: Set<String>
    /// How long after an alert code the same call may not be sent again (`flows.alert_window`).
    public var alertWindowMicroseconds: Int64
    /// How a call that met a fault may be retried (`flows.retry`).
    public var retry: Service.RetryPolicy
    /// The endpoints whose calls are retried after a fault, whatever their method, and
    /// those that are not (`retry: true` or `false`).
    public var retriedEndpoints: [String: Bool]
    /// How long after a fault the same call counts as its retry: twice the longest wait, at least 2 s.
    public var retryWindowMicroseconds: Int64
    /// The nonce header of a signing contract, lowercased: a resend with the nonce of the
    /// request that met the fault is the HTTP stack's, not the app's retry.
    public var nonceHeader: String?
    /// The matrix the contract declares (``DeclaredFlow``): a report shows each cell, met or not.
    public var declared: [FlowPair]

    public init(contract: Contract) {
        let service = contract.service
        let auth = service.auth
        flows = Dictionary(service.codes.compactMap { code in CheckedFlow(code.flow).map { (code.code, $0) } }, uniquingKeysWith: { first, _ in first })
        refresh = auth.refreshEndpoint.isEmpty ? nil : auth.refreshEndpoint
        logins = Set(auth.loginEndpoints)
        logout = auth.logoutEndpoint
        let ids = contract.endpoints.map(\.id)
        allowedWhileBanned = service.flows.allowedWhileBanned.map { patterns in
            Set(ids.filter { id in patterns.contains { EndpointPattern.matches($0, id) } })
        } ?? logins.union(auth.logoutEndpoint.map { [$0] } ?? []).union(contract.endpoints.filter { !$0.requiresAuth }.map(\.id))
        alertWindowMicroseconds = Int64(service.flows.alertWindowMilliseconds) * 1_000
        retry = service.flows.retry
        retriedEndpoints = Dictionary(contract.endpoints.compactMap { endpoint in endpoint.retriesFaults.map { (endpoint.id, $0) } },
                                      uniquingKeysWith: { first, _ in first })
        retryWindowMicroseconds = max(2_000_000, Int64(retry.maxBackoffMilliseconds) * 2_000)
        nonceHeader = service.signing.isEnabled ? service.signing.nonceHeader.lowercased() : nil
        declared = DeclaredFlow.all(in: contract).map(\.pair)
    }

    /// The flow `code` triggers; nil for success and for codes without one.
    func flow(of code: Int?) -> CheckedFlow? {
        code.flatMap { flows[$0] }
    }

    /// Whether the policy retries `observation`'s call after a fault.
    func retries(_ observation: FlowObservation) -> Bool {
        retry.retries(method: observation.method, endpointRetries: observation.endpoint.flatMap { retriedEndpoints[$0] })
    }

    /// Whether `observation` was answered as a success (code 0, or no code and no fault).
    func succeeded(_ observation: FlowObservation) -> Bool {
        observation.fault == nil && (observation.code == 0 || observation.code == nil)
    }
}
