/// Reads `text/event-stream` as the HTML standard defines it, from chunks cut anywhere:
/// lines end with CRLF, LF or CR (a CRLF split across two chunks is one ending); `data`
/// may span several lines; `:` starts a comment; one space after the colon is dropped;
/// `event`, `id` and `retry` are kept; an event is dispatched at a blank line, and one
/// left unfinished when the stream ends is dropped.
public nonisolated struct ServerSentEventParser: Sendable {
    /// A line or an event larger than the limit.
    public struct Oversized: Error, CustomStringConvertible {
        public var limit: Int
        public var description: String { "a server-sent event is larger than \(limit) bytes" }
    }

    /// The most bytes one line, or one event's data, may hold.
    public let limit: Int
    private var line: [UInt8] = []
    /// The previous chunk ended with CR: an LF that starts the next one ends nothing.
    private var afterCR = false
    private var data: [UInt8] = []
    private var hasData = false
    private var type = ""
    private var lastEventID: String?
    private var retry: Int?

    public init(limit: Int = 1 << 20) {
        self.limit = limit
    }

    /// The events that `chunk` completes.
    public mutating func feed(_ chunk: some Sequence<UInt8>) throws(Oversized) -> [ServerSentEvent] {
        var events: [ServerSentEvent] = []
        for byte in chunk {
            if afterCR {
                afterCR = false
                if byte == 0x0A { continue }
            }
            switch byte {
            case 0x0D:
                afterCR = true
                if let event = try endLine() { events.append(event) }
            case 0x0A:
                if let event = try endLine() { events.append(event) }
            default:
                guard line.count < limit else { throw Oversized(limit: limit) }
                line.append(byte)
            }
        }
        return events
    }

    /// Handles the line just ended; an empty one dispatches the event gathered so far.
    private mutating func endLine() throws(Oversized) -> ServerSentEvent? {
        defer { line.removeAll(keepingCapacity: true) }
        guard !line.isEmpty else { return dispatch() }
        if line[0] == UInt8(ascii: ":") { return nil }
        let colon = line.firstIndex(of: UInt8(ascii: ":")) ?? line.endIndex
        let field = String(decoding: line[..<colon], as: UTF8.self)
        var valueStart = colon < line.endIndex ? colon + 1 : colon
        if valueStart < line.endIndex, line[valueStart] == UInt8(ascii: " ") { valueStart += 1 }
        let value = line[valueStart...]
        switch field {
        case "data":
            if hasData { data.append(0x0A) }
            data += value
            hasData = true
            guard data.count <= limit else { throw Oversized(limit: limit) }
        case "event":
            type = String(decoding: value, as: UTF8.self)
        case "id":
            if !value.contains(0) { lastEventID = String(decoding: value, as: UTF8.self) }
        case "retry":
            if !value.isEmpty, value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }), value.count <= 9 {
                retry = Int(String(decoding: value, as: UTF8.self))
            }
        default:
            break
        }
        return nil
    }

    private mutating func dispatch() -> ServerSentEvent? {
        defer {
            data.removeAll(keepingCapacity: true)
            hasData = false
            type = ""
        }
        guard hasData else { return nil }
        return ServerSentEvent(type: type.isEmpty ? "message" : type, data: String(decoding: data, as: UTF8.self),
                               lastEventID: lastEventID, retry: retry)
    }
}
