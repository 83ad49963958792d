import AccordSync

/// What a server or a checker saw, endpoint by endpoint, kept in bounded memory for a
/// report: counts of every request, and the first failures of each endpoint.
///
/// Caps: ``failuresKept`` failures per endpoint (the rest are counted), and
/// ``routesKept`` distinct unknown routes (the rest are counted together). Endpoint
/// ids come from the contract, so their number is bounded by it, not by clients.
public final class Observations: Sendable {
    /// The failures kept per endpoint or unknown route; later ones are only counted.
    public static let failuresKept = 20
    /// The distinct unknown `METHOD path` pairs kept.
    public static let routesKept = 200

    /// What one endpoint (or one unknown route) accumulated.
    public struct Tally: Sendable {
        public var requests = 0
        /// Requests whose answer was injected by a test.
        public var injected = 0
        /// Failures counted: one for each way a request or its answer broke the contract.
        public var failed = 0
        /// Requests with at least one failure.
        public var brokenRequests = 0
        public var failures: [Observation.Failure] = []
        /// Fixtures or examples that answered, with how often.
        public var answers: [String: Int] = [:]
        /// Business codes answered, with how often.
        public var codes: [Int: Int] = [:]

        /// Failures counted but not kept.
        public var omittedFailures: Int { failed - failures.count }
    }

    /// A snapshot of everything observed.
    public struct Snapshot: Sendable {
        public var endpoints: [String: Tally] = [:]
        /// Unknown routes by `METHOD path`.
        public var unknownRoutes: [String: Tally] = [:]
        /// Unknown routes seen after ``routesKept`` distinct ones were kept.
        public var otherUnknownRoutes = 0
        public var requests = 0
    }

    private let state = Locked(Snapshot())

    public init() {}

    /// Counts `observation`.
    public func record(_ observation: Observation) {
        state.withLock { snapshot in
            snapshot.requests += 1
            if let endpoint = observation.endpoint {
                Self.add(observation, to: &snapshot.endpoints[endpoint, default: Tally()])
                return
            }
            let key = observation.method + " " + observation.path
            if snapshot.unknownRoutes[key] != nil || snapshot.unknownRoutes.count < Self.routesKept {
                Self.add(observation, to: &snapshot.unknownRoutes[key, default: Tally()])
            } else {
                snapshot.otherUnknownRoutes += 1
            }
        }
    }

    public var snapshot: Snapshot { state.withLock { $0 } }

    /// Forgets everything (`POST /__accord/reset`).
    public func clear() {
        state.withLock { $0 = Snapshot() }
    }

    private static func add(_ observation: Observation, to tally: inout Tally) {
        tally.requests += 1
        if observation.injected { tally.injected += 1 }
        if let answer = observation.answer { tally.answers[answer, default: 0] += 1 }
        if let code = observation.code { tally.codes[code, default: 0] += 1 }
        guard !observation.failures.isEmpty, !observation.injected else { return }
        tally.failed += observation.failures.count
        tally.brokenRequests += 1
        let room = failuresKept - tally.failures.count
        if room > 0 { tally.failures += observation.failures.prefix(room) }
    }
}
