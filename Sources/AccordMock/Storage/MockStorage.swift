import AccordHTTP
import AccordJSON
import AccordMocksFormat
import AccordSigning

/// Every piece of mutable server state, behind one interface: the clock's offset,
/// nonces, tokens and bans, injection rules, scenario progress, the journal, the
/// collections' records, uploaded files and `{{seq}}`. ``InMemoryStorage`` is the default; several
/// `accord serve` replicas behind a load balancer would share one implementation over a
/// store such as Redis (docs/storage.md maps each operation to Redis commands).
///
/// Each part is its own protocol with one job, and each operation is one atomic step
/// on the shared store: check-and-set for nonces, time to live for tokens and nonces,
/// keys per session for scenario progress and records.
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
    func nextSequence() -> Int
    /// The key list cursors are signed with (``PageCursor``): shared, so a cursor one
    /// replica issued pages on another (`SET cursor:secret … NX` once).
    var cursorSecret: [UInt8] { get }
}

/// The mock clock: the wall clock plus an offset that tests move (`SET clock:offset`).
public protocol ClockStorage: Sendable {
    /// The mock time, in Unix seconds.
    var now: Int64 { get }
    /// The wall clock, in Unix seconds (pinned in tests).
    var wallNow: Int64 { get }
    /// Moves the mock time by `seconds`, within 100 years of the wall clock.
    func advance(by seconds: Int64) throws(ClockOutOfRange)
    /// Sets the mock time, within 100 years of the wall clock.
    func set(to time: Int64) throws(ClockOutOfRange)
    /// Back to the wall clock.
    func reset()
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
    var count: Int { get }
    /// A fresh pair for `uid`.
    func issue(uid: Int) -> TokenPair
    /// What an `Authorization` header's token is worth now.
    func verdict(authorization: String?, scheme: String) -> TokenVerdict
    /// Rotates a refresh token into a fresh pair, atomically (a refresh token is used once).
    func refresh(_ token: String) -> (uid: Int, pair: TokenPair)?
    func revoke(accessToken: String)
    /// Expires the access tokens of `uid` (or everyone's); how many.
    @discardableResult
    func expireAccessTokens(uid: Int?) -> Int
    /// Invalidates the access tokens of `uid` (or everyone's) server-side; how many.
    @discardableResult
    func invalidateAccessTokens(uid: Int?) -> Int
    /// Revokes every token of `uid`; how many.
    @discardableResult
    func forceLogout(uid: Int) -> Int
    func setBan(_ ban: UserBan?, uid: Int)
    func ban(uid: Int) -> UserBan?
    /// Forgets every token and ban.
    func reset()
}

/// Injection rules, in order (a list: `RPUSH rules`, with the times counters in a hash).
public protocol RuleStorage: Sendable {
    var capacity: Int { get }
    var all: [InjectionRule] { get }
    /// Adds `rule` with a fresh id; ``RuleStoreFull`` at ``capacity``.
    func add(_ rule: InjectionRule) throws(RuleStoreFull) -> InjectionRule
    func remove(id: Int) -> Bool
    func removeAll()
    /// The first rule that matches the request and still has uses, counting the use
    /// atomically (`HINCRBY rule:ID fired 1`).
    func fire(endpoint: String, user: Int?, session: String) -> InjectionRule?
}

/// Where each session is in its scenario (a key per session: `HSET scenario:SESSION`).
public protocol ScenarioStorage: Sendable {
    var capacity: Int { get }
    /// The sessions followed now.
    var count: Int { get }
    /// The step `endpoint` meets in `scenario` for `session`, advancing past it atomically.
    func step(for endpoint: String, session: String, scenario: Scenario) -> (index: Int, step: Scenario.Step)?
    /// Puts `session` on the first step of `scenario`, which its requests then follow without a header.
    func start(_ scenario: String, session: String)
    /// The scenario `session` was started on, if any.
    func startedScenario(session: String) -> String?
    func reset()
}

/// The journal of answered requests, newest last, bounded (`RPUSH` then `LTRIM`).
public protocol JournalStorage: Sendable {
    var capacity: Int { get }
    /// The `--record` file's state, when recording.
    var recordingStatus: JournalRecorder.Status? { get }
    /// Keeps `entry`, numbered (`INCR journal:seq`); returns it numbered.
    @discardableResult
    func add(_ entry: JournalEntry) -> JournalEntry
    /// The newest `limit` entries that `filter` lets through, oldest first.
    func entries(matching filter: JournalFilter, limit: Int) -> [JournalEntry]
    func clear()
}

/// The collections' records, a key per session and collection (`session:S:COLLECTION`).
public protocol RecordStorage: Sendable {
    /// The most sessions kept; the least recently used is evicted first.
    var sessionLimit: Int { get }
    /// Sessions holding records now, and how many were evicted so far.
    var counts: (sessions: Int, evicted: Int) { get }
    /// The most bytes of records one session keeps, and all sessions together.
    var sessionBudgetBytes: Int { get }
    var totalBudgetBytes: Int { get }
    /// The bytes of records kept now, and how many records were dropped to keep sessions within their budget.
    var byteCounts: (bytes: Int, trimmed: Int) { get }
    /// The records `session` holds of `collection`; on its first read, those `seeds` gives
    /// (asked only then, outside any lock: rendering them draws from other state).
    func records(of collection: CollectionDefinition, session: String, seeds: () -> [JSONValue]) -> [JSONValue]
    /// The records with their version: a number that changes whenever they do (never
    /// reused), so what is computed from them holds while it stays (`session:S:NAME:version`).
    func versioned(_ collection: CollectionDefinition, session: String, seeds: () -> [JSONValue]) -> (records: [JSONValue], version: UInt64)
    /// Runs `change` on the session's records of `collection` as one atomic step. A shared
    /// implementation may run `change` again after a conflicting write (optimistic
    /// `WATCH`/`MULTI`), so it must only compute from what it is given.
    func modify<Result>(_ collection: CollectionDefinition, session: String, seeds: () -> [JSONValue],
                        _ change: (inout [JSONValue]) -> Result) -> Result
    /// Puts `record` in place of the one with the same `key`, else last, dropping the
    /// oldest at the collection's limit (`HSET session:S:NAME KEY …` with the order in a
    /// list beside it).
    func put(_ record: JSONValue, key: String, into collection: CollectionDefinition, session: String, seeds: () -> [JSONValue])
    /// Returns `session` (or every session) to the seeds.
    func reset(session: String?)
    /// Keeps the records that still fit after a reload; returns the collections dropped.
    @discardableResult
    func adopt(_ collections: [String: CollectionDefinition], replacing previous: [String: CollectionDefinition]) -> [String]
    /// Every session's records, by collection then session.
    func export() -> [String: [String: [JSONValue]]]
    /// Replaces every session's records.
    func restore(_ collections: [String: [String: [JSONValue]]])
}

extension JournalStorage {
    /// The newest `limit` entries (all by default), of `session` or of every session.
    public func entries(session: String? = nil, limit: Int = .max) -> [JournalEntry] {
        entries(matching: JournalFilter(session: session), limit: limit)
    }
}

extension TokenStorage {
    /// Expires every user's access tokens; how many.
    @discardableResult
    public func expireAccessTokens() -> Int { expireAccessTokens(uid: nil) }

    /// Invalidates every user's access tokens; how many.
    @discardableResult
    public func invalidateAccessTokens() -> Int { invalidateAccessTokens(uid: nil) }
}

extension RecordStorage {
    /// ``records(of:session:seeds:)``, the collection's seeds rendered with `state`'s templates.
    public func records(of collection: CollectionDefinition, session: String, state: MockState) -> [JSONValue] {
        records(of: collection, session: session) { collection.renderSeeds(state: state) }
    }

    /// ``versioned(_:session:seeds:)``, the collection's seeds rendered with `state`'s templates.
    public func versioned(_ collection: CollectionDefinition, session: String, state: MockState) -> (records: [JSONValue], version: UInt64) {
        versioned(collection, session: session) { collection.renderSeeds(state: state) }
    }

    /// ``modify(_:session:seeds:_:)``, the collection's seeds rendered with `state`'s templates.
    public func modify<Result>(_ collection: CollectionDefinition, session: String, state: MockState,
                               _ change: (inout [JSONValue]) -> Result) -> Result {
        modify(collection, session: session, seeds: { collection.renderSeeds(state: state) }, change)
    }

    /// ``put(_:key:into:session:seeds:)``, the collection's seeds rendered with `state`'s templates.
    public func put(_ record: JSONValue, key: String, into collection: CollectionDefinition, session: String, state: MockState) {
        put(record, key: key, into: collection, session: session) { collection.renderSeeds(state: state) }
    }
}

extension MockClock: ClockStorage {}
extension TokenStore: TokenStorage {}
extension InjectionRules: RuleStorage {}
extension ScenarioProgress: ScenarioStorage {}
extension Journal: JournalStorage {}
extension CollectionStore: RecordStorage {}

/// A freshly issued token pair (``TokenStorage/issue(uid:)``).
public struct TokenPair: Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public var accessExpiresIn: Int
    public var refreshExpiresIn: Int
}

/// What an access token is worth now (``TokenStorage/verdict(authorization:scheme:)``).
public enum TokenVerdict: Sendable, Equatable {
    case valid(uid: Int)
    /// 1002: expired by time.
    case expired(uid: Int)
    /// 1005: invalidated on the server (unknown to it, or invalidated by a tester).
    case invalidated
    /// 1006: revoked by logout or a forced logout.
    case revoked(uid: Int)
    /// 1006: no bearer token at all.
    case missing
}

/// Why an account is banned, as `data.ban_info` carries it (``TokenStorage/setBan(_:uid:)``).
public struct UserBan: Sendable, Equatable {
    public var reason: String
    public var until: String?
    public var appealURL: String?

    public init(reason: String, until: String? = nil, appealURL: String? = nil) {
        self.reason = reason
        self.until = until
        self.appealURL = appealURL
    }

    /// `{reason, until?, appeal_url?}`.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [.init("reason", .string(reason))]
        if let until { members.append(.init("until", .string(until))) }
        if let appealURL { members.append(.init("appeal_url", .string(appealURL))) }
        return .object(members)
    }
}

/// A move the clock refused because it would leave the allowed range.
public struct ClockOutOfRange: Error, Sendable, Equatable {
    public var message: String
}

/// Adding a rule past the store's ``RuleStorage/capacity``.
public struct RuleStoreFull: Error, Sendable, Equatable {
    public var capacity: Int
}
