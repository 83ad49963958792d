import AccordContract

/// A flow the rules hold a client to: the flow of a code in the table, or the retry
/// policy's for a call that met a fault (a reset, an empty reply, a 5xx without the
/// contract's answer).
public enum CheckedFlow: String, Sendable, Hashable, CaseIterable, Comparable {
    case refreshAndRetry = "refresh-and-retry"
    case logout
    case ban
    case alert
    /// A fault before the backend: retried as the service's retry policy says.
    case retry

    /// The code table's flow, nil for `none`.
    public init?(_ flow: BusinessCode.Flow) {
        switch flow {
        case .none: return nil
        case .refreshAndRetry: self = .refreshAndRetry
        case .logout: self = .logout
        case .ban: self = .ban
        case .alert: self = .alert
        }
    }

    public static func < (lhs: CheckedFlow, rhs: CheckedFlow) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}
