import AccordHTTP
import AccordJSON
import AccordMocksFormat

/// A freshly issued token pair (``TokenStorage/issue(uid:)``).
public struct TokenPair: Sendable, Equatable {
    public var accessToken: String
    public var refreshToken: String
    public var accessExpiresIn: Int
    public var refreshExpiresIn: Int

    public init(accessToken: String, refreshToken: String, accessExpiresIn: Int, refreshExpiresIn: Int) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
        self.accessExpiresIn = accessExpiresIn
        self.refreshExpiresIn = refreshExpiresIn
    }
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

/// What a login earns its user (``TokenStorage/login(uid:)``).
public enum LoginOutcome: Sendable, Equatable {
    case issued(TokenPair)
    /// 1008: no tokens for a banned user.
    case banned(UserBan)
}

/// Why an account is banned, as `data.ban_info` carries it (``TokenStorage/setBan(_:uid:)``).
public struct UserBan: Sendable, Equatable {
    /// The longest `reason`, `until` or `appeal_url` the control API takes, in UTF-8 bytes.
    public static let maxTextBytes = 1_024

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

/// Why a storage operation failed.
public enum StorageError: Error, Sendable, Equatable {
    /// The shared store did not answer, or refused the operation (a lost connection, a
    /// timeout, an error reply): what went wrong, for the log and the 503 answer.
    case unavailable(String)
    /// A clock move refused because it would leave 100 years around the wall clock.
    case clockOutOfRange(String)
    /// Adding a rule past the store's ``RuleStorage/capacity``.
    case rulesFull(capacity: Int)
    /// Banning one more user past the store's limit of bans standing at once.
    case bansFull(capacity: Int)
}

extension StorageError: CustomStringConvertible {
    /// What went wrong, as a sentence's end: `connection refused`.
    public var description: String {
        switch self {
        case .unavailable(let message), .clockOutOfRange(let message): message
        case .rulesFull(let capacity): "the server keeps at most \(capacity) injection rules"
        case .bansFull(let capacity): "the server keeps at most \(capacity) bans"
        }
    }
}

/// Nonces seen within their window, by app key (``NonceCache`` in memory). A shared
/// implementation maps ``insert(appKey:nonce:now:)`` to one atomic check-and-set with a
/// time to live, such as Redis `SET nonce:APP:NONCE 1 NX EX TTL`: two replicas that
/// receive the same nonce at once must not both accept it.
public protocol NonceStorage: Sendable {
    /// The most nonces kept; beyond it an implementation answers ``NonceOutcome/full``.
    var capacity: Int { get }
    /// The nonces within their window now.
    var count: Int { get throws(StorageError) }
    /// Records `nonce` of `appKey` seen at `now` (Unix seconds), atomically: whether it
    /// is new, was already seen within the window, or cannot be kept.
    func insert(appKey: String, nonce: String, now: Int64) throws(StorageError) -> NonceOutcome
    /// Takes the next use of `nonce` of `appKey` as new, once: its request met a fault
    /// that stands for a failure before the backend, which never saw the nonce, so the
    /// HTTP stack's own resend of those bytes (libcurl and URLSession resend an idempotent
    /// request whose reused connection died) is no replay.
    func release(appKey: String, nonce: String) throws(StorageError)
}

/// What keeping a nonce found (``NonceStorage/insert(appKey:nonce:now:)``).
public enum NonceOutcome: Sendable, Equatable {
    /// First use within the window: remembered now.
    case accepted
    /// Seen within the window: a replay.
    case reused
    /// ``NonceStorage/capacity`` nonces are live; this one was not checked and must be refused.
    case full
}
