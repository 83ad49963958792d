import AccordContract
import AccordJSON

/// What the contract says each code makes a client do, and the endpoints the rules need
/// to know: the refresh, the logins, the logout, what a banned user may still call.
public struct FlowRules: Sendable {
    /// The flow each code of the table triggers (codes with flow `none` are left out);
    /// of a plain API's status with several entries, the flow of the one without `when`.
    public var flows: [Int: CheckedFlow]
    /// The flow of each entry, by name, for the statuses whose entries ask different flows
    /// (a plain API's `401` that is `token-expired` or `force-logout` by its `when`).
    public var flowsByName: [String: CheckedFlow]
    /// Those statuses, and the code table that tells their entries apart by the answer's body.
    private let toldApart: Set<Int>
    private let service: Service
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
        flows = Dictionary(uniqueKeysWithValues: Set(service.codes.map(\.code)).compactMap { code in
            service.code(code).flatMap { CheckedFlow($0.flow) }.map { (code, $0) }
        })
        let told = Dictionary(grouping: service.codes, by: \.code).values.filter { Set($0.map(\.flow)).count > 1 }.joined()
        flowsByName = Dictionary(told.compactMap { entry in CheckedFlow(entry.flow).map { (entry.name, $0) } }, uniquingKeysWith: { first, _ in first })
        toldApart = Set(told.map(\.code))
        self.service = service
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

    /// The flow `observation`'s answer asks for; nil for success and for codes without one.
    func flow(of observation: FlowObservation) -> CheckedFlow? {
        if let name = observation.codeName { return flowsByName[name] }
        return observation.code.flatMap { flows[$0] }
    }

    /// The name of the code-table entry an answer of `code` is, when its status has
    /// entries that ask different flows: the one whose `when` the answer's body carries
    /// (else the status's entry without `when`). Nil for every other code, and `body` is
    /// then not asked for: only those answers are read again.
    public func codeName(of code: Int?, body: () -> JSONValue?) -> String? {
        guard let code, toldApart.contains(code) else { return nil }
        return service.code(status: code, body: body())?.name
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
