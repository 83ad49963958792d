import AccordJSON
import AccordMocksFormat
import AccordSync

/// The records of every collection, per session: each session starts from the seeds
/// (rendered when it first reads a collection) and sees only its own writes, so
/// parallel UI tests never see each other's data.
///
/// Bounded in count and in bytes: at most ``sessionLimit`` sessions and
/// ``totalBudgetBytes`` of records in all (the session used longest ago is evicted
/// first); per session, each collection's ``CollectionDefinition/limit`` records and
/// ``sessionBudgetBytes`` of records (a write past it drops the oldest records of the
/// collection it writes, as its record limit does). Sizes are
/// ``AccordJSON/JSONValue/approximateSize``. Kept across hot reloads, like the rest of ``MockState``.
public final class CollectionStore: Sendable {
    /// The default ``sessionLimit``.
    public static let defaultSessionLimit = 256

    /// The most sessions kept.
    public let sessionLimit: Int
    /// The default ``sessionBudgetBytes``: 16 MiB.
    public static let defaultSessionBudget = 16 << 20
    /// The default ``totalBudgetBytes``: 512 MiB.
    public static let defaultTotalBudget = 512 << 20
    /// The most bytes of records one session keeps.
    public let sessionBudgetBytes: Int
    /// The most bytes of records all sessions keep together.
    public let totalBudgetBytes: Int

    private struct Session {
        var collections: [String: [JSONValue]] = [:]
        /// Each collection's version: a fresh number whenever its records change.
        var versions: [String: UInt64] = [:]
        /// Each collection's keys, for ``put``; dropped by any other change, and worked
        /// out again when next needed.
        var keys: [String: Set<String>] = [:]
        /// Each collection's size in bytes, and their sum.
        var sizes: [String: Int] = [:]
        var bytes = 0
        var lastUse: UInt64 = 0

        mutating func setSize(_ size: Int, of name: String) {
            bytes += size - (sizes[name] ?? 0)
            sizes[name] = size
        }
    }

    private struct Storage {
        var sessions: [String: Session] = [:]
        var uses: UInt64 = 0
        var evicted = 0
        /// Records dropped to keep a session within its byte budget.
        var trimmed = 0
        /// The bytes of every session's records.
        var bytes = 0
        /// The last version handed out; versions are never reused.
        var versions: UInt64 = 0
    }

    private let storage = Locked(Storage())

    public init(sessionLimit: Int = CollectionStore.defaultSessionLimit, sessionBudgetBytes: Int = CollectionStore.defaultSessionBudget,
                totalBudgetBytes: Int = CollectionStore.defaultTotalBudget) {
        self.sessionLimit = max(1, sessionLimit)
        self.sessionBudgetBytes = max(1, sessionBudgetBytes)
        self.totalBudgetBytes = max(self.sessionBudgetBytes, totalBudgetBytes)
    }

    private static func size(of records: [JSONValue]) -> Int {
        records.reduce(0) { $0 + $1.approximateSize }
    }

    /// The records `session` holds of `collection`, seeding them first if the session
    /// has not read it yet.
    public func records(of collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue])
        throws(StorageError) -> [JSONValue] {
        try versioned(collection, session: session, seeds: seeds).records
    }

    /// The records with their version, which changes whenever they do: what is computed
    /// from the records (a sorted list) holds while the version does.
    public func versioned(_ collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue])
        throws(StorageError) -> (records: [JSONValue], version: UInt64) {
        if let known = touch(collection.name, session: session) { return known }
        // Rendered outside the lock: templates draw from the state's own locks.
        // Kept as rendered when within the limit: sessions seeded at one time share the array.
        let rendered = try seeds()
        let seeded = rendered.count <= collection.limit ? rendered : Array(rendered.prefix(collection.limit))
        return storage.withLock { storage in
            var entry = storage.sessions[session] ?? Session()
            storage.uses += 1
            entry.lastUse = storage.uses
            if entry.collections[collection.name] == nil {
                entry.collections[collection.name] = seeded
                let before = entry.bytes
                entry.setSize(Self.size(of: seeded), of: collection.name)
                storage.bytes += entry.bytes - before
                storage.versions += 1
                entry.versions[collection.name] = storage.versions
            }
            storage.sessions[session] = entry
            evictIfNeeded(&storage, keeping: session)
            return (entry.collections[collection.name] ?? seeded, entry.versions[collection.name] ?? 0)
        }
    }

    /// Runs `change` on the records `session` holds of `collection` (seeding them first),
    /// atomically: no other request of the session reads or writes them meanwhile.
    public func modify<Result>(_ collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue],
                               _ change: (inout [JSONValue]) -> Result) throws(StorageError) -> Result {
        try write(collection, session: session, seeds: seeds) { records, keys, size in
            keys = nil
            size = nil
            return change(&records)
        }
    }

    /// Puts `record` into the session's records of `collection`: in place of the record
    /// with the same `key`, else last, dropping the oldest record when the collection is
    /// at its limit. One step, without a scan of the records when the key is new.
    public func put(_ record: JSONValue, key: String, into collection: CollectionDefinition, session: String,
                    seeds: () throws(StorageError) -> [JSONValue]) throws(StorageError) {
        try write(collection, session: session, seeds: seeds) { records, known, size in
            var keys = known ?? Set(records.map { ListOrder.key(of: $0, collection.key) })
            var bytes = size ?? Self.size(of: records)
            if keys.contains(key), let index = records.firstIndex(where: { ListOrder.key(of: $0, collection.key) == key }) {
                bytes -= records[index].approximateSize
                records[index] = record
            } else {
                if records.count >= collection.limit {
                    let dropped = records.count - collection.limit + 1
                    for old in records.prefix(dropped) {
                        keys.remove(ListOrder.key(of: old, collection.key))
                        bytes -= old.approximateSize
                    }
                    records.removeFirst(dropped)
                }
                records.append(record)
                keys.insert(key)
            }
            known = keys
            size = bytes + record.approximateSize
        }
    }

    /// Runs `change` on the session's records of `collection` (seeded first), their key
    /// set (nil when not worked out) and their size (which `change` keeps, or sets to nil
    /// to have it worked out again), under the lock, and gives them a new version.
    private func write<Result>(_ collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue],
                               _ change: (inout [JSONValue], inout Set<String>?, inout Int?) -> Result) throws(StorageError) -> Result {
        _ = try versioned(collection, session: session, seeds: seeds)
        return storage.withLock { storage in
            // Taken out, so the records are not shared while they change (no copy).
            var entry = storage.sessions.removeValue(forKey: session) ?? Session()
            storage.uses += 1
            entry.lastUse = storage.uses
            var records = entry.collections.removeValue(forKey: collection.name) ?? []
            var keys = entry.keys.removeValue(forKey: collection.name)
            var size = entry.sizes[collection.name]
            let result = change(&records, &keys, &size)
            let before = entry.bytes
            entry.setSize(size ?? Self.size(of: records), of: collection.name)
            // Past the session's budget, the oldest records of this collection go first (the newest one stays).
            var trimmed = 0
            while entry.bytes > sessionBudgetBytes && records.count > 1 {
                entry.setSize((entry.sizes[collection.name] ?? 0) - records.removeFirst().approximateSize, of: collection.name)
                trimmed += 1
            }
            if trimmed > 0 {
                keys = nil
                storage.trimmed += trimmed
            }
            storage.bytes += entry.bytes - before
            entry.collections[collection.name] = records
            entry.keys[collection.name] = keys
            storage.versions += 1
            entry.versions[collection.name] = storage.versions
            storage.sessions[session] = entry
            evictIfNeeded(&storage, keeping: session)
            return result
        }
    }

    /// How many sessions hold records now, and how many were evicted so far.
    public var counts: (sessions: Int, evicted: Int) {
        storage.withLock { ($0.sessions.count, $0.evicted) }
    }

    /// The bytes of records kept now (all sessions), and how many records were dropped
    /// to keep sessions within their budget.
    public var byteCounts: (bytes: Int, trimmed: Int) {
        storage.withLock { ($0.bytes, $0.trimmed) }
    }

    /// Returns `session` (or every session) to the seeds: the next read seeds it again.
    public func reset(session: String? = nil) {
        storage.withLock { storage in
            if let session {
                storage.bytes -= storage.sessions.removeValue(forKey: session)?.bytes ?? 0
            } else {
                storage.sessions.removeAll()
                storage.bytes = 0
            }
        }
    }

    /// Keeps what still fits after a reload: the records of a collection that is gone, or
    /// whose type's shape or key changed, are dropped from every session (reseeded on
    /// next read). Returns the names dropped.
    @discardableResult
    public func adopt(_ collections: [String: CollectionDefinition], replacing previous: [String: CollectionDefinition]) -> [String] {
        let dropped = previous.values.filter { old in
            guard let new = collections[old.name] else { return true }
            return new.shape != old.shape || new.key != old.key || new.typeName != old.typeName
        }.map(\.name).sorted()
        guard !dropped.isEmpty else { return [] }
        storage.withLock { storage in
            for session in storage.sessions.keys {
                for name in dropped {
                    let before = storage.sessions[session]?.bytes ?? 0
                    storage.sessions[session]?.setSize(0, of: name)
                    storage.bytes -= before - (storage.sessions[session]?.bytes ?? 0)
                    storage.sessions[session]?.collections[name] = nil
                    storage.sessions[session]?.versions[name] = nil
                    storage.sessions[session]?.keys[name] = nil
                }
            }
        }
        return dropped
    }

    /// Every session's records, by collection then session, for a snapshot.
    public func export() -> [String: [String: [JSONValue]]] {
        storage.withLock { storage in
            var collections: [String: [String: [JSONValue]]] = [:]
            for (session, entry) in storage.sessions {
                for (name, records) in entry.collections { collections[name, default: [:]][session] = records }
            }
            return collections
        }
    }

    /// Replaces every session's records with `collections` (by collection, then
    /// session), sessions in name order, within ``sessionLimit``.
    public func restore(_ collections: [String: [String: [JSONValue]]]) {
        storage.withLock { storage in
            storage.sessions.removeAll()
            for (name, sessions) in collections {
                for (session, records) in sessions {
                    storage.versions += 1
                    storage.sessions[session, default: Session()].setSize(Self.size(of: records), of: name)
                    storage.sessions[session, default: Session()].collections[name] = records
                    storage.sessions[session, default: Session()].versions[name] = storage.versions
                }
            }
            for session in storage.sessions.keys.sorted() {
                storage.uses += 1
                storage.sessions[session]?.lastUse = storage.uses
            }
            storage.bytes = storage.sessions.values.reduce(0) { $0 + $1.bytes }
            while storage.sessions.count > sessionLimit || storage.bytes > totalBudgetBytes,
                  let oldest = storage.sessions.min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
                storage.bytes -= storage.sessions.removeValue(forKey: oldest)?.bytes ?? 0
            }
        }
    }

    /// The session's records of `name` and their version, marking the session used; nil
    /// when not seeded yet.
    private func touch(_ name: String, session: String) -> (records: [JSONValue], version: UInt64)? {
        storage.withLock { storage in
            // Found once and marked in place: the session's tables are neither copied nor hashed again.
            guard let index = storage.sessions.index(forKey: session), let records = storage.sessions.values[index].collections[name] else {
                return nil
            }
            storage.uses += 1
            storage.sessions.values[index].lastUse = storage.uses
            return (records, storage.sessions.values[index].versions[name] ?? 0)
        }
    }

    private func evictIfNeeded(_ storage: inout Storage, keeping session: String) {
        while storage.sessions.count > sessionLimit || storage.bytes > totalBudgetBytes,
              let oldest = storage.sessions.filter({ $0.key != session }).min(by: { $0.value.lastUse < $1.value.lastUse })?.key {
            storage.bytes -= storage.sessions[oldest]?.bytes ?? 0
            storage.sessions[oldest] = nil
            storage.evicted += 1
        }
    }
}
