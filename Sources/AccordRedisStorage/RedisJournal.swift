import AccordMock
import AccordMockState
import AccordRedis

/// The journal in Redis: one stream, `PREFIX:journal` (`XADD … MAXLEN ~ capacity`), each
/// entry's JSON and its number from `PREFIX:journal:seq`, numbered and added by one
/// script; so every replica lists every replica's requests, in one order. Entries are
/// written off the request path (``JournalWriter``) and reach the live feed through
/// ``JournalFollower``. The `--record` file stays each replica's own.
final class RedisJournal: SharedJournalStorage {
    private let client: RedisClient
    let capacity: Int
    private let recorder: JournalRecorder?
    /// The name this replica's entries carry.
    private let replica: String?
    private let writer: JournalWriter

    /// - Parameter report: told when entries start being dropped (Redis away while 4,096 wait).
    init(client: RedisClient, capacity: Int = 10_000, recorder: JournalRecorder? = nil, replica: String? = nil,
         report: @escaping @Sendable (String) -> Void = { _ in }) {
        self.client = client
        self.capacity = max(1, capacity)
        self.recorder = recorder
        self.replica = replica
        writer = JournalWriter(client: client, capacity: self.capacity, report: report)
    }

    var dropped: Int { writer.dropped }

    static let scripts = [JournalWriter.add]

    var recordingStatus: JournalRecorder.Status? { recorder?.status }

    /// Queues `entry` for the stream and returns it unnumbered: the number is Redis's,
    /// given when the batch is written, and the live feed carries it. The flow rules judge
    /// the shared journal as it is read, every replica's entries together, not here.
    func add(_ entry: consuming JournalEntry, judgedBy flows: FlowMonitor?) throws(StorageError) -> JournalEntry {
        var stamped = entry
        stamped.replica = replica
        let bytes = stamped.bytes   // written once, for the stream and the record file alike
        writer.queue(bytes)
        recorder?.append(bytes + [0x0A])
        return stamped
    }

    /// This replica's queued entries are written first, so it lists what it just answered.
    func entries(matching filter: JournalFilter, limit: Int) throws(StorageError) -> [JournalEntry] {
        try shared { () throws(RedisError) in try writer.flush() }
        let reply = try shared { () throws(RedisError) in try client.send(RedisCommand("XREVRANGE", client.key("journal"), "+", "-", "COUNT", capacity)) }
        guard let items = reply.elements else { throw .unavailable("Redis: XREVRANGE answered \(reply)") }
        var entries: [JournalEntry] = []
        for item in items.reversed() {
            guard let entry = Self.entry(item) else { continue }
            if filter.admits(entry) { entries.append(entry) }
        }
        return Array(entries.suffix(max(0, limit)))
    }

    /// A stream item (`[id, ["s", number, "e", json]]`) as the entry it keeps, numbered.
    static func entry(_ item: RedisReply) -> JournalEntry? {
        guard let parts = item.elements, parts.count == 2, let fields = parts[1].elements, fields.count == 4,
              let number = fields[1].integer ?? fields[1].text.flatMap({ Int64($0) }), let bytes = fields[3].bytes,
              var entry = JournalEntry(json: bytes) else { return nil }
        entry.sequence = Int(number)
        return entry
    }

    func clear() throws(StorageError) {
        try shared { () throws(RedisError) in
            try writer.flush()
            try client.send(RedisCommand("DEL", client.key("journal")))
        }
    }

    func follow(into feed: JournalFeed) {
        JournalFollower(client: client, feed: feed).start()
    }

    func newestSequence() throws(StorageError) -> Int {
        try shared { () throws(RedisError) in
            try writer.flush()
            let reply = try client.send(RedisCommand("GET", client.key("journal") + ":seq"))
            return reply.text.flatMap { Int($0) } ?? 0
        }
    }
}
