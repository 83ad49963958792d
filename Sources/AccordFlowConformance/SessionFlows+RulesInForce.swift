extension SessionFlows {
    /// The rules `observation`, as a request sent, is held to: those whose trigger an
    /// earlier answer of the session set, broken or not. A report counts them per rule, so
    /// a run shows which rules it put to the test (``FlowChecker/checks``).
    func rulesInForce(for observation: FlowObservation, rules: FlowRules) -> [FlowViolation.Rule] {
        var held: [FlowViolation.Rule] = []
        let isRefresh = observation.endpoint != nil && observation.endpoint == rules.refresh
        if !isRefresh, observation.token != nil, !retired.isEmpty, let refresh = lastRefresh, observation.sent > refresh.answered { held.append(.noOldToken) }
        if isRefresh, !waiting.isEmpty || lastBatch != nil { held.append(.oneRefresh) }
        // A refresh that serves calls owes each its retry, after it and once.
        if isRefresh, rules.succeeded(observation), !waiting.isEmpty { held += [.refreshFirst, .retryOnce] }
        if let ended = loggedOut, observation.sent > ended.answered {
            held.append(ended.endpoint == rules.refresh ? .logoutAfterRefusedRefresh : .noCallsAfterLogout)
        }
        if let ban = banned, observation.sent > ban.answered { held += [.noRetryAfterBan, .onlyAllowedWhileBanned] }
        if alerts.contains(where: { $0.isSameCall(as: observation) && observation.sent > $0.answered }) { held.append(.noRepeatAfterAlert) }
        if let index = chainIndex(of: observation, rules: rules), !observation.isResend(of: faults[index].latest) {
            held += [.retryOnlyWhatThePolicyRetries, .boundedRetries, .retryAfterTheBackoff]
        }
        return held
    }
}
