import AccordJSON
import AccordMock
import AccordMockState
import AccordRedis

/// Tokens and bans in Redis, shared by every replica: issuing, rotation, logout and the
/// checks each run as one Lua script (``TokenScripts``). Expiry is kept in mock time in
/// the stored value (the mock clock can jump); Redis's own time to live only cleans up,
/// a day after the refresh token's lifetime.
final class RedisTokens: TokenStorage {
    private let client: RedisClient
    private let wallClock: MockClock
    let accessTTL: Int
    let refreshTTL: Int
    let capacity: Int
    private let snapshot: RequestSnapshot

    init(client: RedisClient, snapshot: RequestSnapshot, wallClock: MockClock, accessTTL: Int, refreshTTL: Int, capacity: Int = 10_000) {
        self.client = client
        self.snapshot = snapshot
        self.wallClock = wallClock
        self.accessTTL = accessTTL
        self.refreshTTL = refreshTTL
        self.capacity = max(1, capacity)
    }

    /// How long Redis keeps a token's key: past both lifetimes, so the mock clock's moves stay within it.
    private var keySeconds: Int { max(accessTTL, refreshTTL) + 86_400 }
    /// The wall clock the scripts add the shared offset to.
    private var wall: Int64 { wallClock.wallNow }

    var count: Int {
        get throws(StorageError) {
            try shared { () throws(RedisError) in Int(try client.send(RedisCommand("LLEN", client.key("tokens", "issued"))).requireInteger("LLEN")) }
        }
    }

    func issue(uid: Int) throws(StorageError) -> TokenPair {
        let pair = freshPair()
        try shared { () throws(RedisError) in
            try client.run(TokenScripts.issue, keys: [], arguments: [client.url.prefix, uid, pair.accessToken, pair.refreshToken, accessTTL,
                                                                      refreshTTL, capacity, keySeconds, wall])
        }
        return pair
    }

    func verdict(authorization: String?, scheme: String) throws(StorageError) -> TokenVerdict {
        guard let token = TokenStore.token(in: authorization, scheme: scheme) else { return .missing }
        let outcome = try shared { () throws(RedisError) in
            if let read = try snapshot.verdict(of: token) { return read }
            let reply = try client.run(TokenScripts.verdict, keys: [], arguments: [client.url.prefix, token, wall])
            guard let parts = reply.elements, parts.count == 3, let kind = parts[0].integer, let uid = parts[1].integer.map(Int.init) else {
                throw .unexpected("the token check answered \(reply)")
            }
            return RequestScript.Verdict.outcome(kind: kind, uid: uid, ban: parts[2].bytes)
        }
        switch outcome {
        case .valid(let uid, let ban):
            // A valid token's check read the user's ban too: the request asks it next.
            snapshot.keepBan(ban, uid: uid)
            return .valid(uid: uid)
        case .expired(let uid): return .expired(uid: uid)
        case .revoked(let uid): return .revoked(uid: uid)
        case .invalidated: return .invalidated
        }
    }

    func login(uid: Int) throws(StorageError) -> LoginOutcome {
        let pair = freshPair()
        let reply = try shared { () throws(RedisError) in
            try client.run(TokenScripts.login, keys: [], arguments: [client.url.prefix, uid, pair.accessToken, pair.refreshToken, accessTTL,
                                                                      refreshTTL, capacity, keySeconds, wall])
        }
        guard let parts = reply.elements, let issued = parts.first?.integer else { throw .unavailable("Redis: the login answered \(reply)") }
        if issued == 1 { return .issued(pair) }
        guard parts.count == 2, let bytes = parts[1].bytes else { throw .unavailable("Redis: the login answered \(reply)") }
        return .banned(try Self.ban(from: bytes, uid: uid))
    }

    func refresh(_ token: String) throws(StorageError) -> (uid: Int, pair: TokenPair)? {
        let pair = freshPair()
        let reply = try shared { () throws(RedisError) in
            try client.run(TokenScripts.refresh, keys: [], arguments: [client.url.prefix, token, pair.accessToken, pair.refreshToken, accessTTL,
                                                                        refreshTTL, capacity, keySeconds, wall])
        }
        return reply.integer.map { (Int($0), pair) }
    }

    func revoke(accessToken: String) throws(StorageError) {
        _ = try change("revoke", accessToken)
    }

    func expireAccessTokens(uid: Int?) throws(StorageError) -> Int {
        try change("expire", uid.map(String.init) ?? "")
    }

    func invalidateAccessTokens(uid: Int?) throws(StorageError) -> Int {
        try change("invalidate", uid.map(String.init) ?? "")
    }

    func forceLogout(uid: Int) throws(StorageError) -> Int {
        try change("logout", String(uid))
    }

    private func change(_ what: String, _ who: String) throws(StorageError) -> Int {
        try shared { () throws(RedisError) in
            Int(try client.run(TokenScripts.change, keys: [], arguments: [client.url.prefix, what, who, wall]).requireInteger(what))
        }
    }

    /// At most ``capacity`` users banned at once, as in memory (``TokenScripts/ban``).
    func setBan(_ ban: UserBan?, uid: Int) throws(StorageError) {
        snapshot.begin()
        let record = ban.map { JSONWriter.bytes($0.json) } ?? []
        let set = try shared { () throws(RedisError) in
            try client.run(TokenScripts.ban, keys: [], arguments: [client.url.prefix, String(uid), record, capacity]).requireInteger("banning")
        }
        if set == 0 { throw .bansFull(capacity: capacity) }
    }

    func ban(uid: Int) throws(StorageError) -> UserBan? {
        let stored: [UInt8]?
        if let seen = snapshot.ban(of: uid) {
            stored = seen.bytes
        } else {
            stored = try shared { () throws(RedisError) in try client.send(RedisCommand("GET", client.key("ban", String(uid)))).bytes }
        }
        return try stored.map { bytes throws(StorageError) in try Self.ban(from: bytes, uid: uid) }
    }

    /// The ban `bytes` hold, as ``setBan(_:uid:)`` wrote it.
    private static func ban(from bytes: [UInt8], uid: Int) throws(StorageError) -> UserBan {
        guard let value = try? JSONReader.read(bytes), case .string(let reason)? = value["reason"] else {
            throw .unavailable("Redis: the ban of user \(uid) is not one this mock wrote")
        }
        var until: String?
        var appeal: String?
        if case .string(let text)? = value["until"] { until = text }
        if case .string(let text)? = value["appeal_url"] { appeal = text }
        return UserBan(reason: reason, until: until, appealURL: appeal)
    }

    func reset() throws(StorageError) {
        try shared { () throws(RedisError) in
            for pattern in ["token:*", "user:*", "ban:*", "bans", "tokens:*"] { try client.deleteKeys(matching: pattern) }
        }
    }

    private func freshPair() -> TokenPair {
        let (access, refresh) = TokenStore.randomTokens()
        return TokenPair(accessToken: "at_" + access, refreshToken: "rt_" + refresh, accessExpiresIn: accessTTL, refreshExpiresIn: refreshTTL)
    }
}
