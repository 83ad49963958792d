import AccordContract
import AccordFlowConformance
import AccordJSON
import AccordSync

/// The flow rules held live to the journal's entries as they are numbered
/// (`accord serve --check-flows`), per session; a report takes what it found so far. A
/// shared journal's entries are judged when they are read instead, every replica's
/// together (``judge(_:)``): each replica answers only part of a session's requests.
public final class FlowMonitor: Sendable {
    private let checker: Locked<FlowChecker>
    private let rules: FlowRules

    public init(rules: FlowRules) {
        checker = Locked(FlowChecker(rules: rules))
        self.rules = rules
    }

    /// Takes an entry just numbered and returns the rules it broke; entries a report does
    /// not count (CORS, control calls) and those before timing was kept are left out.
    package func judge(_ entry: JournalEntry) -> [FlowViolation] {
        guard let observation = observation(of: entry) else { return [] }
        return checker.withLock { $0.observe(observation) }
    }

    /// What the checks found so far, with the calls still owed a retry counted as violations.
    public func report() -> FlowReport {
        var finished = checker.withLock { $0 }
        finished.finish()
        return FlowReport(finished)
    }

    /// Judges `entries`, a shared journal's, afresh in the order they were answered (each
    /// gets the rules it broke) and returns what the whole of them shows. What this replica
    /// judged as it answered is not read: it saw only its own part of each session.
    package func judge(_ entries: inout [JournalEntry]) -> FlowReport {
        var fresh = FlowChecker(rules: rules)
        let order = entries.indices.sorted { (entries[$0].answeredMicroseconds ?? 0, entries[$0].sequence) < (entries[$1].answeredMicroseconds ?? 0, entries[$1].sequence) }
        for index in order {
            if let observation = observation(of: entries[index]) { entries[index].flowViolations = fresh.observe(observation) }
        }
        fresh.finish()
        return FlowReport(fresh)
    }

    /// Forgets every session (`POST /__accord/reset`).
    package func reset() {
        checker.withLock { $0 = FlowChecker(rules: $0.rules) }
    }

    /// The entry as the rules read it, with its nonce and, for a plain API's status of several entries, the entry its answer is.
    private func observation(of entry: JournalEntry) -> FlowObservation? {
        guard var observation = entry.flowObservation else { return nil }
        observation.nonce = rules.nonceHeader.flatMap { entry.headers[$0] }
        observation.codeName = rules.codeName(of: entry.code) { entry.response?.bytes.flatMap { try? JSONReader.read($0) } }
        return observation
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
