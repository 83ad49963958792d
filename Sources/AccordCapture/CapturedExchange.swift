import AccordJSON

/// One request taken from captured traffic (a HAR file, an `accord serve --record`
/// journal), and its answer where the capture has it.
public struct CapturedExchange: Sendable {
    /// What the capture holds of the answer.
    public struct Response: Sendable {
        public var status: Int
        public var contentType: String?
        /// The body, or nil when the capture kept only the code (a journal).
        public var body: [UInt8]?
        /// The business code, when the capture names it without a body.
        public var code: Int?
        /// Where a redirect points.
        public var redirect: String?
    }

    /// Where the exchange is in its file: `capture.har:entry 17`, `run.jsonl:line 3`.
    public var origin: String
    /// When the request was sent, in Unix seconds.
    public var time: Int64?
    public var method: String
    /// The `Host` (or HTTP/2 `:authority`), without the port.
    public var host: String?
    /// The path and the query, percent-encoded as sent.
    public var target: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]
    /// The size of a body the capture left out; such a request cannot be judged again.
    public var omittedBodyBytes: Int?
    public var response: Response?
    /// The verdict the recording server gave, for a journal.
    public var recordedVerdict: String?
    /// Whether the recording server answered with an injected answer (a rule, a
    /// scenario, a fault), which a report never counts as a violation.
    public var injected = false
    /// Whether the capture stored a binary part as text that lost its bytes (U+FFFD in
    /// place of them): such a request cannot be judged again.
    public var bodyLost = false
    /// What the flow rules need (`--check-flows`): the session (a journal's; one for a
    /// HAR file), when the request was sent and answered in Unix microseconds, and the
    /// tag of its bearer token.
    public var session = "capture"
    public var sentMicroseconds: Int64?
    public var answeredMicroseconds: Int64?
    public var tokenTag: String?
    /// What the client met instead of an answer: the journal's injected fault (`reset`,
    /// `503`), or `no-answer` for a HAR entry with status 0.
    public var fault: String?
    /// The entry's number in a journal (`seq`), which flow violations name.
    public var journalSequence: Int?
    /// The answer's body as a journal line keeps it, read for the flow rules only: it tells
    /// which entry of a plain API's status the answer is (`when:`).
    public var journaledAnswer: JSONValue?

    /// The path without the query.
    public var path: Substring {
        guard let mark = target.utf8.firstIndex(of: UInt8(ascii: "?")) else { return target[...] }
        return target[..<mark]
    }
}

/// A capture that cannot be read: a torn line, a file that is not JSON, a truncated
/// HAR. `description` is one line with the position.
public struct CaptureError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
