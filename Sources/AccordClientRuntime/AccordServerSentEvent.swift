/// One server-sent event.
public nonisolated struct ServerSentEvent: Sendable, Hashable {
    /// `event:`; `message` when the server names none.
    public var type: String
    /// The `data:` lines joined by line feeds.
    public var data: String
    /// The last `id:` seen on the stream, if any.
    public var lastEventID: String?
    /// `retry:`, the reconnection time the server asks for, in milliseconds.
    public var retry: Int?

    public init(type: String = "message", data: String, lastEventID: String? = nil, retry: Int? = nil) {
        self.type = type
        self.data = data
        self.lastEventID = lastEventID
        self.retry = retry
    }
}
