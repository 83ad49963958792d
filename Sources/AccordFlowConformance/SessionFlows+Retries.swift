/// A call that met a fault: its first and its latest failure, how often it was retried
/// since the first, and whether a retry too many (or one the policy forbids) was reported:
/// a client retrying in a loop breaks the rule once.
struct FaultChain {
    var first: FlowObservation
    var latest: FlowObservation
    var retries = 0
    var overRetried = false
}

extension SessionFlows {
    /// The chain `observation` is a retry of: the same call sent after one of its
    /// faults was answered, within the retry window.
    func chainIndex(of observation: FlowObservation, rules: FlowRules) -> Int? {
        faults.lastIndex { chain in
            chain.latest.isSameCall(as: observation) && observation.sent > chain.latest.answered
                && observation.sent - chain.latest.answered < rules.retryWindowMicroseconds
        }
    }

    /// The retry policy's rules `observation` breaks as a retry: a call the policy does
    /// not retry sent again, one retry too many, or a retry sent before the policy's wait.
    func retryViolations(_ observation: FlowObservation, rules: FlowRules) -> [FlowViolation] {
        guard let index = chainIndex(of: observation, rules: rules) else { return [] }
        let chain = faults[index]
        // The HTTP stack resending the request whose reused connection died: not the app's retry.
        if observation.isResend(of: chain.latest) { return [] }
        let fault = chain.latest.fault ?? "a fault"
        let waited = observation.sent - chain.latest.answered
        let wait = Int64(rules.retry.delayMilliseconds(beforeRetry: chain.retries + 1)) * 1_000
        if chain.overRetried { return [] }
        if !rules.retries(chain.latest) {
            return [Self.violation(chain.latest, observation, .retry, .retryOnlyWhatThePolicyRetries,
                                   "after \(fault) at #\(chain.latest.sequence) the \(observation.method) was sent again at #\(observation.sequence)")]
        }
        if chain.retries >= rules.retry.attempts {
            return [Self.violation(chain.first, observation, .retry, .boundedRetries,
                                   "after \(fault) at #\(chain.first.sequence) #\(observation.sequence) was retry \(chain.retries + 1) "
                                   + "(the policy allows \(rules.retry.attempts))")]
        }
        // A millisecond's grace: both times are the server's, rounded to microseconds.
        if waited + 1_000 < wait {
            return [Self.violation(chain.latest, observation, .retry, .retryAfterTheBackoff,
                                   "after \(fault) at #\(chain.latest.sequence) the retry #\(observation.sequence) was sent \(waited / 1_000) ms later "
                                   + "(the policy waits \(wait / 1_000) ms)")]
        }
        return []
    }

    /// Takes in a retry or a fault: a fault starts or extends its call's chain, an answer
    /// ends it. Whether `observation` met a fault the policy speaks of.
    mutating func noteFault(_ observation: FlowObservation, rules: FlowRules) -> Bool {
        let index = chainIndex(of: observation, rules: rules)
        guard let fault = observation.fault, FlowObservation.isRetriedFault(fault) else {
            if let index { faults.remove(at: index) }
            return false
        }
        if let index, observation.isResend(of: faults[index].latest) {
            faults[index].latest = observation
        } else if let index {
            faults[index].overRetried = faults[index].overRetried || !rules.retries(observation) || faults[index].retries >= rules.retry.attempts
            faults[index].retries += 1
            faults[index].latest = observation
        } else {
            faults.removeAll { observation.sent - $0.latest.answered >= rules.retryWindowMicroseconds }
            faults.append(FaultChain(first: observation, latest: observation))
            Self.trim(&faults)
        }
        return true
    }
}
