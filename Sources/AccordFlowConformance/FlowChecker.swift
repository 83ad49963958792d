import AccordContract

/// Holds each session's requests, in the order they were answered, to the flows the
/// contract declares: what a client must do after it meets a code, which no single
/// request shows (docs/flows.md, "Flow conformance").
///
/// A request counts as sent after another only when it arrived after that one was
/// answered: calls already in flight when a code came back are not held to it.
public struct FlowChecker: Sendable {
    public let rules: FlowRules
    public private(set) var violations: [FlowViolation] = []
    /// The endpoints that met each flow, and how often.
    public private(set) var exercised: [FlowPair: Int] = [:]
    /// How many requests each rule was put to (broken or kept).
    public private(set) var checks: [FlowViolation.Rule: Int] = [:]
    private var sessions: [String: SessionFlows] = [:]
    /// The sessions in the order they first came, oldest first from `oldest`.
    private var order: [String] = []
    private var oldest = 0
    /// Sessions forgotten to keep at most ``sessionLimit``, the first seen first.
    public private(set) var forgottenSessions = 0

    /// The most sessions held at once: session names come from clients.
    public static let sessionLimit = 10_000

    public init(rules: FlowRules) {
        self.rules = rules
    }

    /// Takes the next request answered (sessions may interleave); returns the rules it broke.
    @discardableResult
    public mutating func observe(_ observation: FlowObservation) -> [FlowViolation] {
        if sessions[observation.session] == nil { remember(observation.session) }
        var state = sessions[observation.session] ?? SessionFlows()
        for rule in state.rulesInForce(for: observation, rules: rules) { checks[rule, default: 0] += 1 }
        let broken = state.check(observation, rules: rules)
        violations += broken
        if let flow = state.update(with: observation, rules: rules), let endpoint = observation.endpoint {
            exercised[FlowPair(endpoint: endpoint, flow: flow), default: 0] += 1
        }
        sessions[observation.session] = state
        return broken
    }

    /// Makes room for a new session, forgetting the first one seen when the limit is reached.
    private mutating func remember(_ session: String) {
        if sessions.count >= Self.sessionLimit, oldest < order.count {
            sessions[order[oldest]] = nil
            oldest += 1
            forgottenSessions += 1
        }
        if oldest > Self.sessionLimit {
            order.removeFirst(oldest)
            oldest = 0
        }
        order.append(session)
    }

    /// Ends the check with what only the whole sequence shows. A refresh owes each
    /// request that met the code one retry; identical calls sent together cannot be told
    /// from a call sent again, so they are counted: when a call was retried after the
    /// refresh fewer times than it was sent before it, the extra sends were retries before
    /// the refresh; a call never retried at all was not retried.
    public mutating func finish() {
        for name in sessions.keys.sorted() {
            guard let state = sessions[name] else { continue }
            for owed in state.owed {
                if owed.retried {
                    violations.append(SessionFlows.violation(owed.first, owed.met, .refreshAndRetry, .refreshFirst,
                                                             "after \(owed.first.code ?? 0) at #\(owed.first.sequence) the call was sent again at "
                                                             + "#\(owed.met.sequence) before a refresh"))
                } else {
                    violations.append(SessionFlows.violation(owed.met, nil, .refreshAndRetry, .retryOnce,
                                                             "after \(owed.met.code ?? 0) at #\(owed.met.sequence) the call was never retried"))
                }
            }
        }
    }
}

/// An endpoint and a flow it met: one cell of the report's matrix.
public struct FlowPair: Sendable, Hashable, Comparable {
    public var endpoint: String
    public var flow: CheckedFlow

    public init(endpoint: String, flow: CheckedFlow) {
        self.endpoint = endpoint
        self.flow = flow
    }

    public static func < (lhs: FlowPair, rhs: FlowPair) -> Bool {
        (lhs.endpoint, lhs.flow) < (rhs.endpoint, rhs.flow)
    }
}

/// What one session's earlier answers ask of its next requests.
struct SessionFlows {
    /// Requests that met a refresh-and-retry code since the last refresh answered.
    var waiting: [FlowObservation] = []
    /// The refresh that last answered a success and the first call it served, and the
    /// refreshes sent since the waiting began.
    var lastRefresh: FlowObservation?
    var lastBatch: FlowObservation?
    var refreshes: [FlowObservation] = []
    /// Access tokens a refresh replaced, each with the request that met the code with it.
    var retired: [String: FlowObservation] = [:]
    /// The most requests a session keeps in each list below (and tokens retired): the
    /// oldest go first, so one client cannot grow the checker without bound.
    static let listLimit = 256
    /// Requests a refresh owes a retry, until it comes: with the first request of the same
    /// call in that refresh's set, and whether any of that call's requests was retried.
    var owed: [(met: FlowObservation, after: Int64, first: FlowObservation, retried: Bool)] = []
    /// The answer that ended the session, until a login succeeds.
    var loggedOut: FlowObservation?
    var banned: FlowObservation?
    var alerts: [FlowObservation] = []
    /// Calls that met a fault lately, each with its retries so far.
    var faults: [FaultChain] = []

    /// The rules `observation`, as a request sent, breaks.
    func check(_ observation: FlowObservation, rules: FlowRules) -> [FlowViolation] {
        var found: [FlowViolation] = []
        let isRefresh = observation.endpoint != nil && observation.endpoint == rules.refresh
        let isLogin = observation.endpoint.map(rules.logins.contains) ?? false
        if let token = observation.token, let met = retired[token], let refresh = lastRefresh, !isRefresh, observation.sent > refresh.answered {
            found.append(Self.violation(met, observation, .refreshAndRetry, .noOldToken,
                                        "after \(met.code ?? 0) at #\(met.sequence) and the refresh at #\(refresh.sequence), #\(observation.sequence) was sent with the old token"))
        }
        // Two refreshes for one set of calls: a second one sent while the first was in flight,
        // or after it answered while the calls it served are still owed their retry.
        if isRefresh, let first = waiting.first, let earlier = refreshes.last, observation.sent < earlier.answered {
            found.append(Self.violation(first, observation, .refreshAndRetry, .oneRefresh,
                                        "after \(first.code ?? 0) at #\(first.sequence) a second refresh was sent at #\(observation.sequence) (the first at #\(earlier.sequence))"))
        } else if isRefresh, waiting.isEmpty, let refresh = lastRefresh, let batch = lastBatch, observation.sent < refresh.answered || !owed.isEmpty {
            found.append(Self.violation(batch, observation, .refreshAndRetry, .oneRefresh,
                                        "after \(batch.code ?? 0) at #\(batch.sequence) a second refresh was sent at #\(observation.sequence) (the first at #\(refresh.sequence))"))
        }
        if let ended = loggedOut, !isLogin, observation.token != nil, observation.sent > ended.answered {
            let rule: FlowViolation.Rule = ended.endpoint == rules.refresh ? .logoutAfterRefusedRefresh : .noCallsAfterLogout
            found.append(Self.violation(ended, observation, .logout, rule,
                                        "after \(ended.code ?? 0) at #\(ended.sequence) #\(observation.sequence) was sent with a token before a new login"))
        }
        if let ban = banned, observation.sent > ban.answered, !(observation.endpoint.map(rules.allowedWhileBanned.contains) ?? false) {
            let retried = observation.isSameCall(as: ban)
            found.append(Self.violation(ban, observation, .ban, retried ? .noRetryAfterBan : .onlyAllowedWhileBanned,
                                        "after \(ban.code ?? 0) at #\(ban.sequence) #\(observation.sequence) \(retried ? "retried the call" : "called \(observation.endpoint ?? observation.path)")"))
        }
        found += retryViolations(observation, rules: rules)
        if let alert = alerts.first(where: { $0.isSameCall(as: observation) && observation.sent > $0.answered
                                             && observation.sent - $0.answered < rules.alertWindowMicroseconds }) {
            found.append(Self.violation(alert, observation, .alert, .noRepeatAfterAlert,
                                        "after \(alert.code ?? 0) at #\(alert.sequence) the call was sent again at #\(observation.sequence), "
                                        + "\((observation.sent - alert.answered) / 1_000) ms later"))
        }
        return found
    }

    /// Takes in what `observation` was answered; the flow it met, if any.
    mutating func update(with observation: FlowObservation, rules: FlowRules) -> CheckedFlow? {
        let flow = rules.flow(of: observation)
        if let index = owed.firstIndex(where: { $0.met.isSameCall(as: observation) && observation.sent > $0.after }) {
            let retried = owed.remove(at: index)
            for other in owed.indices where owed[other].first == retried.first { owed[other].retried = true }
        }
        // A fault is no answer: only the retry policy reads it.
        if noteFault(observation, rules: rules) { return .retry }
        if observation.endpoint != nil, observation.endpoint == rules.refresh {
            refreshes.append(observation)
            Self.trim(&refreshes)
            if rules.succeeded(observation) {
                if retired.count > Self.listLimit { retired = [:] }
                for met in waiting { if let token = met.token { retired[token] = met } }
                owed += waiting.map { met in (met, observation.answered, waiting.first { $0.isSameCall(as: met) } ?? met, false) }
                Self.trim(&owed)
                (lastRefresh, lastBatch) = (observation, waiting.first ?? lastBatch)
                waiting = []
                refreshes = []
                return nil
            }
            if flow == .logout { (loggedOut, waiting) = (observation, []) }
            return flow
        }
        if observation.endpoint.map(rules.logins.contains) == true, rules.succeeded(observation) {
            (loggedOut, banned, waiting, refreshes, retired) = (nil, nil, [], [], [:])
            return nil
        }
        // A call answered as a success shows the session and the account are live again.
        if rules.succeeded(observation), observation.token != nil { (loggedOut, banned) = (nil, nil) }
        switch flow {
        case .refreshAndRetry?:
            // A call in flight with a token a refresh already replaced met the code too; it is the refresh's already.
            if observation.token.map({ retired[$0] == nil }) ?? true {
                waiting.append(observation)
                Self.trim(&waiting)
            }
        case .logout?: loggedOut = observation
        case .ban?: banned = observation
        case .alert?:
            alerts.removeAll { observation.answered - $0.answered >= rules.alertWindowMicroseconds }
            alerts.append(observation)
            Self.trim(&alerts)
        case .retry?, nil: break
        }
        return flow
    }

    /// `list` without its oldest items beyond ``listLimit``.
    static func trim<Item>(_ list: inout [Item]) {
        if list.count > listLimit { list.removeFirst(list.count - listLimit) }
    }

    static func violation(_ met: FlowObservation, _ offending: FlowObservation?, _ flow: CheckedFlow, _ rule: FlowViolation.Rule,
                          _ what: String) -> FlowViolation {
        FlowViolation(endpoint: met.endpoint ?? met.path, flow: flow, rule: rule, session: met.session, met: met.sequence,
                      offending: offending?.sequence, what: what)
    }
}
