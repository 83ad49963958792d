import AccordHTTP
import AccordJSON
import AccordMocksFormat

/// Every piece of mutable server state, behind one interface: the clock's offset,
/// nonces, tokens and bans, injection rules, scenario progress, the journal, the
/// collections' records, uploaded files and `{{seq}}`. ``InMemoryStorage`` is the default; several
/// `accord serve` replicas behind a load balancer would share one implementation over a
/// store such as Redis (docs/storage.md maps each operation to Redis commands).
///
/// Each part is its own protocol with one job, and each operation is one atomic step
/// on the shared store: check-and-set for nonces, time to live for tokens and nonces,
/// keys per session for scenario progress and records.
///
/// Every operation that reads or writes the store can fail with a ``StorageError``: a
/// shared store can be unreachable. The in-memory drivers never fail that way (their
/// methods do not throw, which satisfies the requirements). What a driver is configured
/// with, such as a capacity, a lifetime or a budget, is its own and cannot fail.
public protocol MockStorage: Sendable {
    var clock: any ClockStorage { get }
    var nonces: any NonceStorage { get }
    var tokens: any TokenStorage { get }
    var rules: any RuleStorage { get }
    var scenarios: any ScenarioStorage { get }
    var journal: any JournalStorage { get }
    var collections: any RecordStorage { get }
    /// Uploaded files, within their budget (``UploadStore``).
    var uploads: any UploadStorage { get }
    /// 1, 2, 3, … across every replica (`INCR seq`).
    func nextSequence() throws(StorageError) -> Int
    /// A request starts on this thread: a shared storage forgets what it kept of the
    /// previous one (a value read once per request). Nothing, in memory.
    func beginRequest()
    /// Throws when the storage cannot serve now (`GET /__accord/health`); memory always can.
    func checkHealth() throws(StorageError)
    /// Whether ``preview(_:)`` is worth the engine's while: a shared storage's, which reads
    /// ahead; false in memory, whose path then has no preview stage.
    var readsAhead: Bool { get }
    /// What the routed request will read: a shared storage reads it in the request's first
    /// round trip. Nothing, in memory.
    func preview(_ request: RequestPreview)
    /// The key list cursors are signed with (``PageCursor``): shared, so a cursor one
    /// replica issued pages on another (`SET cursor:secret … NX` once).
    var cursorSecret: [UInt8] { get throws(StorageError) }
}

/// The mock clock: the wall clock plus an offset that tests move (`SET clock:offset`).
public protocol ClockStorage: Sendable {
    /// The mock time, in Unix seconds.
    var now: Int64 { get throws(StorageError) }
    /// The wall clock, in Unix seconds (pinned in tests).
    var wallNow: Int64 { get throws(StorageError) }
    /// Moves the mock time by `seconds`, within 100 years of the wall clock (else ``StorageError/clockOutOfRange(_:)``).
    func advance(by seconds: Int64) throws(StorageError)
    /// Sets the mock time, within 100 years of the wall clock (else ``StorageError/clockOutOfRange(_:)``).
    func set(to time: Int64) throws(StorageError)
    /// Back to the wall clock.
    func reset() throws(StorageError)
}

/// Issued token pairs, by token, with their lifetimes, and bans by user. A shared
/// implementation keeps a key per token with its time to live (`SET token:T UID EX TTL`)
/// and a set of tokens per user for revocation (`SADD user:UID:tokens`).
public protocol TokenStorage: Sendable {
    var accessTTL: Int { get }
    var refreshTTL: Int { get }
    /// The most pairs kept; the oldest is forgotten beyond it.
    var capacity: Int { get }
    /// The access tokens kept now.
    var count: Int { get throws(StorageError) }
    /// A fresh pair for `uid`.
    func issue(uid: Int) throws(StorageError) -> TokenPair
    /// What an `Authorization` header's token is worth now.
    func verdict(authorization: String?, scheme: String) throws(StorageError) -> TokenVerdict
    /// Rotates a refresh token into a fresh pair, atomically (a refresh token is used once).
    func refresh(_ token: String) throws(StorageError) -> (uid: Int, pair: TokenPair)?
    func revoke(accessToken: String) throws(StorageError)
    /// Expires the access tokens of `uid` (or everyone's); how many.
    @discardableResult
    func expireAccessTokens(uid: Int?) throws(StorageError) -> Int
    /// Invalidates the access tokens of `uid` (or everyone's) server-side; how many.
    @discardableResult
    func invalidateAccessTokens(uid: Int?) throws(StorageError) -> Int
    /// Revokes every token of `uid`; how many.
    @discardableResult
    func forceLogout(uid: Int) throws(StorageError) -> Int
    /// Bans `uid`, or lifts its ban with nil; ``StorageError/bansFull(capacity:)`` when the
    /// implementation keeps no more bans (in memory: as many as token pairs).
    func setBan(_ ban: UserBan?, uid: Int) throws(StorageError)
    func ban(uid: Int) throws(StorageError) -> UserBan?
    /// A fresh pair for `uid`, or its ban: a shared implementation checks and issues in one step.
    func login(uid: Int) throws(StorageError) -> LoginOutcome
    /// Forgets every token and ban.
    func reset() throws(StorageError)
}

/// Injection rules, in order (a list: `RPUSH rules`, with the times counters in a hash).
public protocol RuleStorage: Sendable {
    var capacity: Int { get }
    var all: [InjectionRule] { get throws(StorageError) }
    /// Adds `rule` with a fresh id; ``StorageError/rulesFull(capacity:)`` at ``capacity``.
    func add(_ rule: InjectionRule) throws(StorageError) -> InjectionRule
    func remove(id: Int) throws(StorageError) -> Bool
    func removeAll() throws(StorageError)
    /// The first rule that matches the request and still has uses, counting the use
    /// atomically (`HINCRBY rule:ID fired 1`).
    func fire(endpoint: String, user: Int?, session: String) throws(StorageError) -> InjectionRule?
}

/// Where each session is in its scenario (a key per session: `HSET scenario:SESSION`).
public protocol ScenarioStorage: Sendable {
    var capacity: Int { get }
    /// The sessions followed now.
    var count: Int { get throws(StorageError) }
    /// The step `endpoint` meets in `scenario` for `session`, advancing past it atomically.
    func step(for endpoint: String, session: String, scenario: Scenario) throws(StorageError) -> (index: Int, step: Scenario.Step)?
    /// Puts `session` on the first step of `scenario`, which its requests then follow without a header.
    func start(_ scenario: String, session: String) throws(StorageError)
    /// The scenario `session` was started on, if any.
    func startedScenario(session: String) throws(StorageError) -> String?
    func reset() throws(StorageError)
}

/// The journal of answered requests, newest last, bounded (`RPUSH` then `LTRIM`).
public protocol JournalStorage: Sendable {
    var capacity: Int { get }
    /// The `--record` file's state, when recording.
    var recordingStatus: JournalRecorder.Status? { get }
    /// Keeps `entry`, numbered (`INCR journal:seq`), and returns it as kept: numbered and
    /// judged by `flows`, or, by a shared journal that writes it later in a batch, not yet
    /// (its number is in ``entries(matching:limit:)``, and its verdicts are given as it is
    /// read, over every replica's entries: ``MockEngine/journalEntries(matching:limit:)``).
    /// The entry is taken, not copied.
    @discardableResult
    func add(_ entry: consuming JournalEntry, judgedBy flows: FlowMonitor?) throws(StorageError) -> JournalEntry
    /// The newest `limit` entries that `filter` lets through, oldest first.
    func entries(matching filter: JournalFilter, limit: Int) throws(StorageError) -> [JournalEntry]
    /// The entry numbered `sequence`, if it is still kept.
    func entry(sequence: Int) throws(StorageError) -> JournalEntry?
    func clear() throws(StorageError)
}

/// The collections' records, a key per session and collection (`session:S:COLLECTION`).
public protocol RecordStorage: Sendable {
    /// The most sessions kept; the least recently used is evicted first.
    var sessionLimit: Int { get }
    /// Sessions holding records now, and how many were evicted so far.
    var counts: (sessions: Int, evicted: Int) { get throws(StorageError) }
    /// The most bytes of records one session keeps, and all sessions together.
    var sessionBudgetBytes: Int { get }
    var totalBudgetBytes: Int { get }
    /// The bytes of records kept now, and how many records were dropped to keep sessions within their budget.
    var byteCounts: (bytes: Int, trimmed: Int) { get throws(StorageError) }
    /// The records `session` holds of `collection`; on its first read, those `seeds` gives
    /// (asked only then, outside any lock: rendering them draws from other state, so it
    /// can fail as storage does, and the in-memory driver passes that failure on).
    func records(of collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue]) throws(StorageError) -> [JSONValue]
    /// The records with their version: a number that changes whenever they do (never
    /// reused), so what is computed from them holds while it stays (`session:S:NAME:version`).
    func versioned(_ collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue])
        throws(StorageError) -> (records: [JSONValue], version: UInt64)
    /// Runs `change` on the session's records of `collection` as one atomic step. A shared
    /// implementation may run `change` again after a conflicting write (optimistic
    /// `WATCH`/`MULTI`), so it must only compute from what it is given.
    func modify<Result>(_ collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue],
                        _ change: (inout [JSONValue]) -> Result) throws(StorageError) -> Result
    /// Puts `record` in place of the one with the same `key`, else last, dropping the
    /// oldest at the collection's limit (`HSET session:S:NAME KEY …` with the order in a
    /// list beside it).
    func put(_ record: JSONValue, key: String, into collection: CollectionDefinition, session: String, seeds: () throws(StorageError) -> [JSONValue])
        throws(StorageError)
    /// Returns `session` (or every session) to the seeds.
    func reset(session: String?) throws(StorageError)
    /// Keeps the records that still fit after a reload; returns the collections dropped.
    @discardableResult
    func adopt(_ collections: [String: CollectionDefinition], replacing previous: [String: CollectionDefinition]) throws(StorageError) -> [String]
    /// Every session's records, by collection then session.
    func export() throws(StorageError) -> [String: [String: [JSONValue]]]
    /// Replaces every session's records.
    func restore(_ collections: [String: [String: [JSONValue]]]) throws(StorageError)
}

/// A journal several replicas file into: its entries reach this replica's live feed from
/// the shared store (every replica's, in one order), not from this replica's own adds.
extension JournalStorage {
    /// Keeps `entry`, judged by no flow rules.
    @discardableResult
    public func add(_ entry: consuming JournalEntry) throws(StorageError) -> JournalEntry {
        try add(entry, judgedBy: nil)
    }
}

public protocol SharedJournalStorage: JournalStorage {
    /// The entries this replica answered that never reached the shared journal (dropped
    /// while it was away and too many waited), for `GET /__accord/requests`.
    var dropped: Int { get }
    /// Hands every entry filed from now on, by any replica, to `feed` while it has streams
    /// open, in the journal's order (``JournalFeed/publishInOrder(_:)``), from the oldest
    /// number a stream has yet to be offered (``JournalFeed/oldestSeen``).
    func follow(into feed: JournalFeed)
    /// The number of the newest entry any replica filed (this replica's queued entries
    /// written first): a stream opened now takes the entries after it live.
    func newestSequence() throws(StorageError) -> Int
}

extension MockStorage {
    public func beginRequest() {}
    public func checkHealth() throws(StorageError) {}
    public var readsAhead: Bool { false }
    public func preview(_ request: RequestPreview) {}
}

extension JournalStorage {
    /// Looks through every kept entry; a journal that knows where each number is answers directly.
    public func entry(sequence: Int) throws(StorageError) -> JournalEntry? {
        try entries().first { $0.sequence == sequence }
    }

    /// The newest `limit` entries (all by default), of `session` or of every session.
    public func entries(session: String? = nil, limit: Int = .max) throws(StorageError) -> [JournalEntry] {
        try entries(matching: JournalFilter(session: session), limit: limit)
    }
}

extension TokenStorage {
    public func login(uid: Int) throws(StorageError) -> LoginOutcome {
        if let ban = try ban(uid: uid) { return .banned(ban) }
        return .issued(try issue(uid: uid))
    }

    /// Expires every user's access tokens; how many.
    @discardableResult
    public func expireAccessTokens() throws(StorageError) -> Int { try expireAccessTokens(uid: nil) }

    /// Invalidates every user's access tokens; how many.
    @discardableResult
    public func invalidateAccessTokens() throws(StorageError) -> Int { try invalidateAccessTokens(uid: nil) }
}

extension RecordStorage {
    /// ``records(of:session:seeds:)``, the collection's seeds rendered with `state`'s templates.
    public func records(of collection: CollectionDefinition, session: String, state: MockState) throws(StorageError) -> [JSONValue] {
        try records(of: collection, session: session) { () throws(StorageError) in try collection.renderSeeds(state: state) }
    }

    /// ``versioned(_:session:seeds:)``, the collection's seeds rendered with `state`'s templates.
    public func versioned(_ collection: CollectionDefinition, session: String, state: MockState)
        throws(StorageError) -> (records: [JSONValue], version: UInt64) {
        try versioned(collection, session: session) { () throws(StorageError) in try collection.renderSeeds(state: state) }
    }

    /// ``modify(_:session:seeds:_:)``, the collection's seeds rendered with `state`'s templates.
    public func modify<Result>(_ collection: CollectionDefinition, session: String, state: MockState,
                               _ change: (inout [JSONValue]) -> Result) throws(StorageError) -> Result {
        try modify(collection, session: session, seeds: { () throws(StorageError) in try collection.renderSeeds(state: state) }, change)
    }

    /// ``put(_:key:into:session:seeds:)``, the collection's seeds rendered with `state`'s templates.
    public func put(_ record: JSONValue, key: String, into collection: CollectionDefinition, session: String, state: MockState)
        throws(StorageError) {
        try put(record, key: key, into: collection, session: session) { () throws(StorageError) in try collection.renderSeeds(state: state) }
    }
}

extension MockClock: ClockStorage {}
extension NonceCache: NonceStorage {}
extension TokenStore: TokenStorage {}
extension InjectionRules: RuleStorage {}
extension ScenarioProgress: ScenarioStorage {}
extension Journal: JournalStorage {}
extension CollectionStore: RecordStorage {}
