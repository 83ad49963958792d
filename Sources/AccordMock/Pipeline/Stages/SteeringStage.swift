import AccordContract
import AccordHTTP
import AccordMockState
import AccordMocksFormat

/// Refuses steering headers (`X-Accord-Inject`, `X-Accord-Scenario`,
/// `X-Accord-Session`) from beyond loopback without the admin token, unless
/// ``MockOptions/allowsRemoteSteering`` is set, and a session name longer than rules
/// and the journal keep.
struct SteeringStage: Stage {
    let options: MockOptions
    let envelopes: Envelopes

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        let request = exchange.request
        if !request.isFromLoopback, !options.allowsRemoteSteering, !request.carriesAdminToken(options.adminToken) {
            let steering = [InjectionStage.header, InjectionStage.scenarioHeader, MockEngine.sessionHeader].filter { request.headers[$0] != nil }
            if !steering.isEmpty {
                return envelopes.refuse(
                    &exchange, status: 403, kind: "steering_not_allowed",
                    "\(steering.joined(separator: ", ")) from beyond this machine need X-Accord-Admin-Token (or start the server with --allow-remote-steering)",
                    verdict: .forbidden)
            }
        }
        if exchange.session.utf8.count > InjectionRule.maxSessionLength {
            return envelopes.refuse(&exchange, status: 400, kind: "invalid_session",
                                    "X-Accord-Session is longer than \(InjectionRule.maxSessionLength) bytes", verdict: .invalid)
        }
        return try next(&exchange)
    }
}
