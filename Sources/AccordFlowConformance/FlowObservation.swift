/// One request of a session as the flow rules read it: when it was sent and answered,
/// what it called, the token it carried and the code it got. The journal of `accord
/// serve` and captured traffic both become these.
public struct FlowObservation: Sendable, Hashable {
    /// Its number in the journal (or its place in the capture).
    public var sequence: Int
    /// When the request arrived, and when it was answered, in Unix microseconds.
    public var sent: Int64
    public var answered: Int64
    public var session: String
    /// The endpoint it reached, if any.
    public var endpoint: String?
    public var method: String
    /// The path, without the query: what tells one call from another of the same endpoint.
    public var path: String
    /// A tag that tells the bearer token it carried from others (never the token), or nil.
    public var token: String?
    /// The business code answered (or, without an envelope, the code table's status); nil without one.
    public var code: Int?
    /// The code-table entry the answer is, when its status has entries that ask different
    /// flows (``FlowRules/codeName(of:body:)``); nil otherwise.
    public var codeName: String?
    /// The fault the client met instead of an answer (`reset`, `empty`, `503`), nil for an answer.
    public var fault: String?
    /// The request's nonce, when the contract signs: the same bytes sent again carry it.
    public var nonce: String?

    public init(sequence: Int, sent: Int64, answered: Int64, session: String, endpoint: String?, method: String, path: String,
                token: String?, code: Int?, fault: String? = nil) {
        self.fault = fault
        self.sequence = sequence
        self.sent = sent
        self.answered = answered
        self.session = session
        self.endpoint = endpoint
        self.method = method
        self.path = path
        self.token = token
        self.code = code
    }

    /// Whether this is `other` sent again as it was, by the HTTP stack: the same signed nonce.
    func isResend(of other: FlowObservation) -> Bool {
        nonce != nil && nonce == other.nonce && isSameCall(as: other)
    }

    /// Whether `other` is the same call again: the same method on the same path.
    func isSameCall(as other: FlowObservation) -> Bool {
        method == other.method && path == other.path
    }

    /// Whether a fault a client retries after stands for this answer: a connection reset
    /// or closed without an answer (`no-answer` in a HAR file), or a 5xx status that is not a code of the contract.
    /// A JSON body cut short or sent slowly is an answer; a retry does not mend it.
    public static func isRetriedFault(_ fault: String) -> Bool {
        fault == "reset" || fault == "empty" || fault == "no-answer" || Int(fault).map { (500...599).contains($0) } == true
    }
}
