import AccordCrypto
import AccordJSON
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordRedis

/// The collections' records in Redis (``RecordScripts``), per session and collection,
/// within the same bounds as in memory: sessions by least recent use, bytes per session
/// and in all. A write is optimistic: the records are read with their version, changed
/// here, and written only if the version still holds (else read again), so `change` may
/// run more than once and must only compute from what it is given.
final class RedisRecords: RecordStorage {
    private let client: RedisClient
    let sessionLimit: Int
    let sessionBudgetBytes: Int
    let totalBudgetBytes: Int
    /// Attempts of one write under contention before the request is answered 503.
    static let attempts = 16

    init(client: RedisClient, sessionLimit: Int = CollectionStore.defaultSessionLimit, sessionBudgetBytes: Int = CollectionStore.defaultSessionBudget,
         totalBudgetBytes: Int = CollectionStore.defaultTotalBudget) {
        self.client = client
        self.sessionLimit = max(1, sessionLimit)
        self.sessionBudgetBytes = max(1, sessionBudgetBytes)
        self.totalBudgetBytes = max(self.sessionBudgetBytes, totalBudgetBytes)
    }

    /// A session's name as it appears in keys: hex, so no name can reach into another's keys.
    private static func hex(_ session: String) -> String { Hex.lowercase(Array(session.utf8)) }

    private static func size(of records: [JSONValue]) -> Int { records.reduce(0) { $0 + $1.approximateSize } }

    private struct Stored {
        var records: [JSONValue]
        var version: UInt64
        var sessionBytes: Int
    }

    var counts: (sessions: Int, evicted: Int) {
        get throws(StorageError) {
            let replies = try shared { () throws(RedisError) in
                try client.send([RedisCommand("ZCARD", client.key("rec", "sessions")), RedisCommand("GET", client.key("rec", "evicted"))])
            }
            return (Int(replies[0].integer ?? 0), Int(replies[1].integer ?? 0))
        }
    }

    var byteCounts: (bytes: Int, trimmed: Int) {
        get throws(StorageError) {
            let replies = try shared { () throws(RedisError) in
                try client.send([RedisCommand("GET", client.key("rec", "bytes")), RedisCommand("GET", client.key("rec", "trimmed"))])
            }
            return (Int(replies[0].integer ?? 0), Int(replies[1].integer ?? 0))
        }
    }

    func records(of collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue]) throws(StorageError) -> [JSONValue] {
        try stored(collection, session: session, seeds: seeds).records
    }

    func versioned(_ collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue])
        throws(StorageError) -> (records: [JSONValue], version: UInt64) {
        let found = try stored(collection, session: session, seeds: seeds)
        return (found.records, found.version)
    }

    func modify<Result>(_ collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue],
                        _ change: (inout [JSONValue]) -> Result) throws(StorageError) -> Result {
        for _ in 0..<Self.attempts {
            let found = try stored(collection, session: session, seeds: seeds)
            var records = found.records
            let result = change(&records)
            let before = Self.size(of: found.records)
            var size = Self.size(of: records)
            // Past the session's budget, the oldest records of this collection go first (the newest one stays).
            var trimmed = 0
            while found.sessionBytes - before + size > sessionBudgetBytes && records.count > 1 {
                size -= records.removeFirst().approximateSize
                trimmed += 1
            }
            let written = try shared { () throws(RedisError) in
                try client.run(RecordScripts.write, keys: [], arguments: [client.url.prefix, Self.hex(session), collection.name, found.version,
                                                                          JSONWriter.bytes(.array(records)), size, trimmed, sessionLimit,
                                                                          totalBudgetBytes]).requireInteger("writing records")
            }
            if written > 0 { return result }
        }
        throw .unavailable("Redis: the records of '\(collection.name)' in session '\(session)' kept changing under \(Self.attempts) attempts")
    }

    func put(_ record: JSONValue, key: String, into collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue])
        throws(StorageError) {
        try modify(collection, session: session, seeds: seeds) { records in
            if let index = records.firstIndex(where: { ListOrder.key(of: $0, collection.key) == key }) {
                records[index] = record
            } else {
                if records.count >= collection.limit { records.removeFirst(records.count - collection.limit + 1) }
                records.append(record)
            }
        }
    }

    func reset(session: String?) throws(StorageError) {
        try shared { () throws(RedisError) in
            if let session {
                try client.run(RecordScripts.reset, keys: [], arguments: [client.url.prefix, Self.hex(session)])
            } else {
                try client.deleteKeys(matching: "rec:*")
            }
        }
    }

    func adopt(_ collections: [String: CollectionDefinition], replacing previous: [String: CollectionDefinition]) throws(StorageError) -> [String] {
        let dropped = previous.values.filter { old in
            guard let new = collections[old.name] else { return true }
            return new.shape != old.shape || new.key != old.key || new.typeName != old.typeName
        }.map(\.name).sorted()
        guard !dropped.isEmpty else { return [] }
        try shared { () throws(RedisError) in
            try client.run(RecordScripts.forget, keys: [], arguments: [client.url.prefix] + dropped)
        }
        return dropped
    }

    func export() throws(StorageError) -> [String: [String: [JSONValue]]] {
        try shared { () throws(RedisError) in
            var collections: [String: [String: [JSONValue]]] = [:]
            let sessions = try client.send(RedisCommand("ZRANGE", client.key("rec", "sessions"), 0, -1)).elements?.compactMap(\.text) ?? []
            for hex in sessions {
                guard let name = Digest.bytes(fromHex: hex).map({ String(decoding: $0, as: UTF8.self) }) else { continue }
                let names = try client.send(RedisCommand("SMEMBERS", client.key("rec", hex, "names"))).elements?.compactMap(\.text) ?? []
                let replies = try client.send(names.map { RedisCommand("HGET", client.key("rec", hex, $0), "j") })
                for (collection, reply) in zip(names, replies) {
                    if let bytes = reply.bytes, case .array(let records)? = try? JSONReader.read(bytes) { collections[collection, default: [:]][name] = records }
                }
            }
            return collections
        }
    }

    func restore(_ collections: [String: [String: [JSONValue]]]) throws(StorageError) {
        try reset(session: nil)
        let writes = collections.flatMap { name, sessions in sessions.map { (name: name, session: $0.key, records: $0.value) } }
            .sorted { ($0.session, $0.name) < ($1.session, $1.name) }
        for write in writes { _ = try seed(write.name, session: write.session, records: write.records) }
    }

    /// The session's records of `collection`, seeded first when it has none yet.
    private func stored(_ collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue]) throws(StorageError) -> Stored {
        let reply = try shared { () throws(RedisError) in
            try client.run(RecordScripts.read, keys: [], arguments: [client.url.prefix, Self.hex(session), collection.name])
        }
        if let found = try Self.stored(reply) { return found }
        // Rendered outside any script: templates draw from other state.
        let rendered = try seeds()
        return try seed(collection.name, session: session, records: Array(rendered.prefix(collection.limit)))
    }

    private func seed(_ name: String, session: String, records: [JSONValue]) throws(StorageError) -> Stored {
        let reply = try shared { () throws(RedisError) in
            try client.run(RecordScripts.seed, keys: [], arguments: [client.url.prefix, Self.hex(session), name, JSONWriter.bytes(.array(records)),
                                                                     Self.size(of: records), sessionLimit, totalBudgetBytes])
        }
        guard let found = try Self.stored(reply) else { throw .unavailable("Redis: seeding '\(name)' answered \(reply)") }
        return found
    }

    private static func stored(_ reply: RedisReply) throws(StorageError) -> Stored? {
        guard let fields = reply.elements else { return nil }
        guard fields.count == 3, let bytes = fields[0].bytes, case .array(let records)? = try? JSONReader.read(bytes),
              let version = fields[1].integer, let sessionBytes = fields[2].integer else {
            throw .unavailable("Redis: records that are not a JSON array this mock wrote")
        }
        return Stored(records: records, version: UInt64(max(0, version)), sessionBytes: Int(sessionBytes))
    }
}
