import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// How a call that met a fault before the backend answered (offline, a reset or closed
/// connection, a timeout, a 5xx without the contract's answer) is sent again: at most
/// ``attempts`` times, waiting ``backoff`` before the first retry and twice as long
/// before each next one (at most ``maxBackoff``), and only for the ``methods`` that may
/// be sent twice unless the endpoint says otherwise (the contract's `retry:`).
/// ``RetryPolicy/contract`` is the policy the contract declares (`flows.retry`).
public nonisolated struct RetryPolicy: Sendable, Hashable {
    /// Retries after the first try; 0 retries nothing.
    public var attempts: Int
    /// Seconds before the first retry.
    public var backoff: TimeInterval
    /// The longest wait, in seconds; a server that asks for longer (`Retry-After`) is not retried.
    public var maxBackoff: TimeInterval
    /// The methods retried when the endpoint does not say.
    public var methods: Set<HTTPMethod>

    public init(attempts: Int, backoff: TimeInterval, maxBackoff: TimeInterval, methods: Set<HTTPMethod>) {
        self.attempts = attempts
        self.backoff = backoff
        self.maxBackoff = maxBackoff
        self.methods = methods
    }

    /// Retries nothing.
    public static let never = RetryPolicy(attempts: 0, backoff: 0, maxBackoff: 0, methods: [])

    /// The seconds to wait before retry `number` (1 for the first) of `endpoint` after
    /// `failure`, nil when it is not retried: a failure that is not a fault, a call the
    /// policy does not retry, the attempts spent, or a server asking to wait
    /// (`serverAsks`, its `Retry-After`) longer than ``maxBackoff``.
    public func delay<Response, Service>(beforeRetry number: Int, of endpoint: Endpoint<Response>, after failure: AccordAPIError<Service>,
                                serverAsks: TimeInterval? = nil) -> TimeInterval? {
        guard number <= attempts, Self.isFault(failure), endpoint.retriesFaults ?? methods.contains(endpoint.method) else { return nil }
        if let serverAsks, serverAsks > maxBackoff { return nil }
        var wait = backoff
        for _ in 1..<max(1, min(number, 16)) where wait < maxBackoff { wait *= 2 }
        return max(min(wait, maxBackoff), serverAsks ?? 0)
    }

    /// Whether `failure` stands for no answer from the backend, which a retry may mend.
    public static func isFault<Service>(_ failure: AccordAPIError<Service>) -> Bool {
        switch failure {
        case .offline, .timeout, .transport: true
        case .http(let status, _): (500...599).contains(status)
        case .business, .banned, .sessionEnded, .undecodable, .cancelled, .storage: false
        }
    }

    /// A `Retry-After` of whole seconds (an HTTP date is not read), at most a day.
    static func retryAfter(_ response: HTTPURLResponse) -> TimeInterval? {
        guard let text = response.value(forHTTPHeaderField: "Retry-After"), text.count <= 6, let seconds = Int(text), seconds >= 0 else { return nil }
        return TimeInterval(min(seconds, 86_400))
    }
}
