import AccordContract

/// A client that did not do what a code's flow asks, with the requests that show it.
public struct FlowViolation: Sendable, Hashable, CustomStringConvertible {
    /// The rule broken, worded as what the flow asks.
    public enum Rule: String, Sendable, Hashable, CaseIterable {
        case oneRefresh = "one refresh for the calls that met the code"
        case refreshFirst = "the refresh before any retry"
        case retryOnce = "the call retried once"
        case noOldToken = "no request with the old token after the refresh"
        case logoutAfterRefusedRefresh = "a refused refresh ends the session"
        case noCallsAfterLogout = "no authenticated call until a new login"
        case noRetryAfterBan = "a banned call is not retried"
        case onlyAllowedWhileBanned = "only the login, logout and public endpoints while banned"
        case noRepeatAfterAlert = "the same call not sent again within the alert window"
        case retryOnlyWhatThePolicyRetries = "after a fault, only the calls the retry policy retries are sent again"
        case boundedRetries = "no more retries after a fault than the retry policy's attempts"
        case retryAfterTheBackoff = "each retry after the retry policy's wait"

        /// The flow whose rule it is.
        public var flow: CheckedFlow {
            switch self {
            case .oneRefresh, .refreshFirst, .retryOnce, .noOldToken: .refreshAndRetry
            case .logoutAfterRefusedRefresh, .noCallsAfterLogout: .logout
            case .noRetryAfterBan, .onlyAllowedWhileBanned: .ban
            case .noRepeatAfterAlert: .alert
            case .retryOnlyWhatThePolicyRetries, .boundedRetries, .retryAfterTheBackoff: .retry
            }
        }
    }

    /// The endpoint that met the code (or the fault).
    public var endpoint: String
    public var flow: CheckedFlow
    public var rule: Rule
    public var session: String
    /// The request that met the code, and the one that broke the rule (if one did).
    public var met: Int
    public var offending: Int?
    /// What happened, after the two numbers: `the request was retried with the old token`.
    public var what: String

    /// `signal.inbox: after 1002 at #41 the request was sent with the old token at #42
    /// (refresh-and-retry: no request with the old token after the refresh)`.
    public var description: String {
        "\(endpoint): \(what) (\(flow.rawValue): \(rule.rawValue)) in session \(session)"
    }
}
