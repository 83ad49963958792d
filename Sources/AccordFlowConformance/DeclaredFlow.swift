import AccordContract

/// A cell of the matrix a contract declares: an endpoint and a flow its answers can ask
/// of a client, with the code-table entry that asks it (nil for the retry policy's faults).
///
/// An endpoint that needs a bearer token can meet the session's codes (the one that
/// refreshes, the forced logout, the ban), except the logins, the refresh and the
/// logout themselves; the refresh can meet its refusal (a `logout` code); an endpoint
/// meets the alert codes it lists; and the retry flow is every endpoint the retry
/// policy retries.
public struct DeclaredFlow: Sendable, Hashable {
    public var pair: FlowPair
    /// The entry that makes the flow, which a plain API's status may share with others
    /// (`when:`); nil for `retry`, which a fault makes.
    public var entry: BusinessCode?

    public init(pair: FlowPair, entry: BusinessCode?) {
        self.pair = pair
        self.entry = entry
    }

    /// Every cell `contract` declares, by endpoint id, then in the order above.
    public static func all(in contract: Contract) -> [DeclaredFlow] {
        let service = contract.service
        let auth = service.auth
        let roles = FlowCodes(service: service)
        func code(_ role: FlowCodes.Role, _ flow: BusinessCode.Flow) -> BusinessCode? {
            roles.entry(role).flatMap { $0.flow == flow ? $0 : nil }
        }
        let sessionCodes: [(CheckedFlow, BusinessCode?)] = auth.usesTokens
            ? [(.refreshAndRetry, auth.refreshes ? code(.tokenExpired, .refreshAndRetry) : nil), (.logout, code(.forceLogout, .logout)), (.ban, code(.banned, .ban))]
            : []
        let sessionEndpoints = Set(auth.loginEndpoints + [auth.refreshEndpoint] + (auth.logoutEndpoint.map { [$0] } ?? []))
        var declared: [DeclaredFlow] = []
        for endpoint in contract.endpoints.sorted(by: { $0.id < $1.id }) {
            func add(_ flow: CheckedFlow, _ entry: BusinessCode?) {
                declared.append(DeclaredFlow(pair: FlowPair(endpoint: endpoint.id, flow: flow), entry: entry))
            }
            if endpoint.requiresAuth, !sessionEndpoints.contains(endpoint.id) {
                for case let (flow, code?) in sessionCodes { add(flow, code) }
            }
            if endpoint.id == auth.refreshEndpoint, let refused = code(.refreshInvalid, .logout) { add(.logout, refused) }
            if let alert = endpoint.codes.compactMap(service.code).first(where: { $0.flow == .alert }) { add(.alert, alert) }
            if service.flows.retry.retries(method: endpoint.method.rawValue, endpointRetries: endpoint.retriesFaults) { add(.retry, nil) }
        }
        return declared
    }
}
