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

    public init(sequence: Int, sent: Int64, answered: Int64, session: String, endpoint: String?, method: String, path: String,
                token: String?, code: Int?) {
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

    /// Whether `other` is the same call again: the same method on the same path.
    func isSameCall(as other: FlowObservation) -> Bool {
        method == other.method && path == other.path
    }
}
