import AccordJSON

/// One request (and, where known, its answer) as a report sees it: which endpoint it
/// reached, what answered, and what broke the contract, if anything.
public struct Observation: Sendable {
    /// Which side broke the contract.
    public enum Side: String, Sendable, Hashable {
        /// The client sent what the contract does not allow.
        case request
        /// The server answered what the contract does not promise.
        case response
    }

    /// One way a request or its answer broke the contract.
    public struct Failure: Sendable {
        public var side: Side
        /// The reason in a few words: `validation (1000)`, `signature (1001)`, `unknown route`.
        public var kind: String
        /// What a reader sees first: the message of the refusal or the first violation.
        public var message: String
        /// The details: the journal entry, the violations with their JSON pointers,
        /// `sorted_params` for a signature, as one JSON object.
        public var details: JSONValue
        /// Where the request came from, when not from the server itself (`capture.har:entry 17`).
        public var origin: String?

        public init(side: Side, kind: String, message: String, details: JSONValue, origin: String? = nil) {
            self.side = side
            self.kind = kind
            self.message = message
            self.details = details
            self.origin = origin
        }
    }

    /// The endpoint the request reached; nil when no route matched.
    public var endpoint: String?
    public var method: String
    public var path: String
    /// The fixture or example that answered.
    public var answer: String?
    /// The business code of the answer, if it was an envelope.
    public var code: Int?
    /// Whether a test injected the answer (a header, a rule, a scenario): such requests
    /// count as calls but never as violations.
    public var injected: Bool
    public var failures: [Failure]

    public init(endpoint: String?, method: String, path: String, answer: String? = nil, code: Int? = nil, injected: Bool = false,
                failures: [Failure] = []) {
        self.endpoint = endpoint
        self.method = method
        self.path = path
        self.answer = answer
        self.code = code
        self.injected = injected
        self.failures = failures
    }
}
