import AccordContract
import AccordFlowConformance
import AccordJSON
import AccordSync

/// The flow rules held live to the journal's entries as they are filed
/// (`accord serve --check-flows`), per session; a report takes what it found so far.
public final class FlowMonitor: Sendable {
    private let checker: Locked<FlowChecker>
    private let rules: FlowRules

    public init(rules: FlowRules) {
        checker = Locked(FlowChecker(rules: rules))
        self.rules = rules
    }

    /// Takes an entry just filed; entries a report does not count (CORS, control calls) and those before timing was kept are left out.
    func observe(_ entry: JournalEntry) {
        guard var observation = entry.flowObservation else { return }
        observation.nonce = rules.nonceHeader.flatMap { entry.headers[$0] }
        observation.codeName = rules.codeName(of: entry.code) { entry.response?.bytes.flatMap { try? JSONReader.read($0) } }
        checker.withLock { $0.observe(observation) }
    }

    /// What the checks found so far, with the calls still owed a retry counted as violations.
    public func report() -> FlowReport {
        var finished = checker.withLock { $0 }
        finished.finish()
        return FlowReport(finished)
    }

    /// Forgets every session (`POST /__accord/reset`).
    func reset() {
        checker.withLock { $0 = FlowChecker(rules: $0.rules) }
    }
}

extension JournalEntry {
    /// The entry as the flow rules read it; nil for one a report does not count, or one
    /// recorded without its times (a journal from before they were kept).
    public var flowObservation: FlowObservation? {
        guard verdict.isObserved, let sent = sentMicroseconds, let answered = answeredMicroseconds else { return nil }
        return FlowObservation(sequence: sequence, sent: sent, answered: answered, session: session, endpoint: endpoint, method: method,
                               path: path, token: tokenTag, code: code, fault: fault)
    }
}
