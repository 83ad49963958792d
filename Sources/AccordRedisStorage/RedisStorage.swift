import AccordMock
import AccordMockState
import AccordRedis
import AccordSync

/// The mock's state in one Redis, shared by every `accord serve` that names it
/// (`--storage redis://HOST:PORT[/DB][?prefix=NAME]`): every part a driver of its own
/// over one ``RedisClient``, every key under the URL's prefix. docs/storage.md maps each
/// operation to its commands, with the bound on what each part keeps.
public final class RedisStorage: MockStorage {
    public let clock: any ClockStorage
    public let nonces: any NonceStorage
    public let tokens: any TokenStorage
    public let rules: any RuleStorage
    public let scenarios: any ScenarioStorage
    public let journal: any JournalStorage
    public let collections: any RecordStorage
    public let uploads: any UploadStorage
    /// The connection pool every part shares.
    public let client: RedisClient
    private let secret = Locked<[UInt8]?>(nil)
    private let snapshot: RequestSnapshot

    /// Every script the parts run, so a Redis that restarted (and forgot them) is sent their source.
    static let scripts = [RedisClock.advance, RequestScript.prelude] + TokenScripts.all + RedisRules.scripts + RedisScenarios.scripts + RedisJournal.scripts
        + RedisUploads.scripts + RecordScripts.all

    /// - Parameters:
    ///   - wallClock: this replica's wall clock (pinned in tests); the mock clock's offset is Redis's.
    ///   - replica: the name this replica's journal entries carry; nil carries none.
    ///   - sessionBudget, totalBudget: the bytes of records one session and all sessions keep.
    ///   - random: the source of `percent` draws for injection rules (the process's seeded generator).
    ///   - report: told when journal entries start being dropped (Redis away while 4,096 wait).
    public init(url: RedisURL, wallClock: MockClock = MockClock(), nonceTTLSeconds: Int, accessTTL: Int = 7_200, refreshTTL: Int = 2_592_000,
                journalCapacity: Int = 10_000, recorder: JournalRecorder? = nil, replica: String? = nil, uploadBudget: Int = UploadStore.defaultBudget,
                sessionBudget: Int = CollectionStore.defaultSessionBudget, totalBudget: Int = CollectionStore.defaultTotalBudget,
                random: @escaping @Sendable () -> Double, report: @escaping @Sendable (String) -> Void = { _ in }) {
        let client = RedisClient(url: url, scripts: Self.scripts)
        self.client = client
        let snapshot = RequestSnapshot(client: client, wall: wallClock, parked: ParkedSequences())
        self.snapshot = snapshot
        clock = RedisClock(client: client, wall: wallClock, snapshot: snapshot)
        nonces = RedisNonces(client: client, snapshot: snapshot, ttlSeconds: nonceTTLSeconds)
        tokens = RedisTokens(client: client, snapshot: snapshot, wallClock: wallClock, accessTTL: accessTTL, refreshTTL: refreshTTL)
        rules = RedisRules(client: client, snapshot: snapshot, random: random)
        scenarios = RedisScenarios(client: client, snapshot: snapshot)
        journal = RedisJournal(client: client, capacity: journalCapacity, recorder: recorder, replica: replica, report: report)
        collections = RedisRecords(client: client, sessionBudgetBytes: sessionBudget, totalBudgetBytes: totalBudget)
        uploads = RedisUploads(client: client, budgetBytes: uploadBudget)
    }

    /// Checks, before serving, that Redis answers and keeps what it is given: a
    /// `maxmemory-policy` that evicts keys would drop nonces and tokens silently (replays
    /// accepted, sessions ended), so it is refused unless `allowEviction`.
    public func checkReachable(allowEviction: Bool) throws(RedisError) {
        try client.ping()
        let reply = try client.send(RedisCommand("CONFIG", "GET", "maxmemory-policy"))
        guard let policy = reply.elements?.last?.text else { return }
        if policy != "noeviction" && !allowEviction {
            throw .reply("Redis at \(client.url.host):\(client.url.port) has maxmemory-policy '\(policy)', which evicts keys: evicted nonces and "
                         + "tokens would silently accept replays and end sessions; set 'maxmemory-policy noeviction' or pass --allow-eviction")
        }
    }

    /// Forgets what the previous request read on this thread.
    public func beginRequest() {
        snapshot.begin()
    }

    public var readsAhead: Bool { true }

    /// Redis answers a `PING`.
    public func checkHealth() throws(StorageError) {
        try shared { () throws(RedisError) in try client.ping() }
    }

    /// The routed request's reads go in its first round trip (``RequestSnapshot``).
    public func preview(_ request: RequestPreview) {
        snapshot.expect(request)
    }

    /// A number the request's prelude reserved, else `INCR`.
    public func nextSequence() throws(StorageError) -> Int {
        if let parked = snapshot.parked.take() { return parked }
        return try shared { () throws(RedisError) in Int(try client.send(RedisCommand("INCR", client.key("seq"))).requireInteger("INCR seq")) }
    }

    /// Set once by whichever replica comes first (`SET … NX`), then read by all and kept.
    public var cursorSecret: [UInt8] {
        get throws(StorageError) {
            if let known = secret.withLock({ $0 }) { return known }
            let candidate = SecureRandom.bytes(32)
            let replies = try shared { () throws(RedisError) in
                try client.send([RedisCommand("SET", client.key("cursor", "secret"), candidate, "NX"), RedisCommand("GET", client.key("cursor", "secret"))])
            }
            guard let bytes = replies[1].bytes, bytes.count == 32 else { throw .unavailable("Redis: the cursor key is not one this mock wrote") }
            secret.withLock { $0 = bytes }
            return bytes
        }
    }
}
