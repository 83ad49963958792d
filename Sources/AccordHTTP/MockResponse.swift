import AccordJSON

/// What the engine answers: status, headers, a body or an event stream, an optional
/// delay, and a summary for the access log and the journal.
public struct MockResponse: Sendable {
    /// The body: bytes sent at once, or server-sent events sent one by one.
    public enum Body: Sendable, Equatable {
        case bytes([UInt8])
        case events([StreamEvent])
        /// Raw pieces of a body sent with pauses between them (the slow-body fault).
        case chunks([Chunk])
        /// Bytes sent as another thread writes them (a proxied stream).
        case stream(BodyPipe)
    }

    /// A raw piece of a body and how long to wait before sending it.
    public struct Chunk: Sendable, Equatable {
        public var bytes: [UInt8]
        public var delayMilliseconds: Int

        public init(bytes: [UInt8], delayMilliseconds: Int) {
            self.bytes = bytes
            self.delayMilliseconds = delayMilliseconds
        }
    }

    /// How a connection ends without an answer (transport faults).
    public enum Termination: Sendable, Equatable {
        /// A TCP reset.
        case reset
        /// A clean close.
        case close
    }

    /// One server-sent event and how long to wait before sending it.
    public struct StreamEvent: Sendable, Equatable {
        public var data: [UInt8]
        public var delayMilliseconds: Int

        public init(data: [UInt8], delayMilliseconds: Int = 0) {
            self.data = data
            self.delayMilliseconds = delayMilliseconds
        }

        /// The bytes on the wire: `data: …\n\n`.
        public var wireBytes: [UInt8] { Array("data: ".utf8) + data + [0x0A, 0x0A] }
    }

    /// What happened, for the access log.
    public struct Summary: Sendable, Equatable {
        /// The matched endpoint id, if any.
        public var endpoint: String?
        /// The fixture or example that answered, if any.
        public var source: String?
        /// The envelope's business code, if the body is an envelope.
        public var code: Int?
        /// How the engine judged the request.
        public var verdict: Verdict
        /// How many ways the request and, behind a proxy, its answer broke the contract.
        public var problems = 0
        /// Why the server could not answer as it should (its storage failed), for the log.
        public var failure: String?

        public init(endpoint: String? = nil, source: String? = nil, code: Int? = nil, verdict: Verdict) {
            self.endpoint = endpoint
            self.source = source
            self.code = code
            self.verdict = verdict
        }
    }

    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Body
    /// Wait this long before answering.
    public var delayMilliseconds: Int
    /// End the connection instead of answering.
    public var termination: Termination?
    public var summary: Summary

    public init(status: Int, headers: [(name: String, value: String)] = [], body: Body = .bytes([]),
                delayMilliseconds: Int = 0, summary: Summary) {
        self.status = status
        self.headers = headers
        self.body = body
        self.delayMilliseconds = delayMilliseconds
        self.summary = summary
    }

    /// The body as chunks with their delays, whatever its form; none for a stream
    /// still being written (its bytes are not known yet).
    public var chunks: [Chunk] {
        switch body {
        case .bytes(let bytes): [Chunk(bytes: bytes, delayMilliseconds: 0)]
        case .events(let events): events.map { Chunk(bytes: $0.wireBytes, delayMilliseconds: $0.delayMilliseconds) }
        case .chunks(let chunks): chunks
        case .stream: []
        }
    }

    /// The value of header `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        headers.first { ASCII.equalsIgnoringCase($0.name, name) }?.value
    }

    /// The body bytes, or the concatenated event bytes of a stream.
    public var bodyBytes: [UInt8] {
        chunks.flatMap(\.bytes)
    }

    /// The body parsed as JSON, if it is JSON.
    public var json: JSONValue? { try? JSONReader.read(bodyBytes) }
}
