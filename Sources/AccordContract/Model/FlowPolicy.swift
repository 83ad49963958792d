extension Service {
    /// The service file's `flows:` section: what the flow rules hold a client to beyond
    /// the code table (the alert window, what a banned user may call) and how a client
    /// retries a call that met a fault.
    public struct Flows: Sendable, Hashable {
        public var retry: RetryPolicy
        /// How long after an alert code the same call may not be sent again (2 s).
        public var alertWindowMilliseconds: Int
        /// The endpoints a banned user may still call; nil for the default: the logins,
        /// the logout and every public endpoint.
        public var allowedWhileBanned: [String]?

        public init(retry: RetryPolicy = RetryPolicy(), alertWindowMilliseconds: Int = 2_000, allowedWhileBanned: [String]? = nil) {
            self.retry = retry
            self.alertWindowMilliseconds = alertWindowMilliseconds
            self.allowedWhileBanned = allowedWhileBanned
        }
    }

    /// How a client retries a call that met a fault before the backend (a reset or
    /// closed connection, a timeout, a 5xx without the contract's answer): at most
    /// ``attempts`` times, waiting ``delayMilliseconds(beforeRetry:)`` first, and only
    /// for the ``methods`` that may be sent twice unless the endpoint says otherwise
    /// (`retry: true` or `false`).
    public struct RetryPolicy: Sendable, Hashable {
        /// The retries after the first try (2); 0 retries nothing.
        public var attempts: Int
        /// The wait before the first retry (200 ms), doubled before each next one.
        public var backoffMilliseconds: Int
        /// The longest wait (2 s).
        public var maxBackoffMilliseconds: Int
        /// The methods retried by default: the idempotent ones.
        public var methods: [String]

        /// The most retries a policy may ask for.
        public static let attemptLimit = 10
        /// RFC 9110's idempotent methods.
        public static let idempotentMethods = ["GET", "HEAD", "OPTIONS", "PUT", "DELETE"]
        /// The methods a policy may name.
        public static let methodNames = idempotentMethods + ["POST", "PATCH"]

        public init(attempts: Int = 2, backoffMilliseconds: Int = 200, maxBackoffMilliseconds: Int = 2_000, methods: [String] = idempotentMethods) {
            self.attempts = attempts
            self.backoffMilliseconds = backoffMilliseconds
            self.maxBackoffMilliseconds = maxBackoffMilliseconds
            self.methods = methods
        }

        /// The wait before retry `number` (1 for the first): the backoff doubled for each
        /// retry before it, at most the longest wait.
        public func delayMilliseconds(beforeRetry number: Int) -> Int {
            var delay = backoffMilliseconds
            for _ in 1..<max(1, min(number, Self.attemptLimit)) where delay < maxBackoffMilliseconds { delay *= 2 }
            return min(delay, maxBackoffMilliseconds)
        }

        /// Whether a call of `method` is retried, unless its endpoint says (`endpointRetries`).
        public func retries(method: String, endpointRetries: Bool?) -> Bool {
            attempts > 0 && (endpointRetries ?? methods.contains(method))
        }
    }
}
