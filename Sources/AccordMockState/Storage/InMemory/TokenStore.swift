import AccordContract
import AccordHTTP
import AccordJSON
import AccordSync

/// Real token state: opaque random tokens with lifetimes on the mock clock, rotation,
/// revocation and bans, so that 1002, 1005, 1006, 1007 and 1008 happen the way a real
/// backend would produce them.
///
/// At most `capacity` pairs are remembered; past that the oldest are forgotten (their
/// tokens then answer 1005, their refresh 1007), so memory stays flat under any number
/// of logins. At most `capacity` users are banned at once: one more ban is refused.
public final class TokenStore: Sendable {
    private struct Grant {
        var uid: Int
        var expiresAt: Int64
        /// The other token of the pair.
        var partner: String
        var revoked = false
        var invalidated = false
    }

    private struct State {
        var access: [String: Grant] = [:]
        var refresh: [String: Grant] = [:]
        var bans: [Int: UserBan] = [:]
        /// Access tokens in the order issued, for forgetting the oldest.
        var issued: [String] = []
        var oldest = 0
    }

    private let state = Locked(State())
    public let clock: MockClock
    public let accessTTL: Int
    public let refreshTTL: Int
    public let capacity: Int

    public init(clock: MockClock, accessTTL: Int, refreshTTL: Int, capacity: Int = 10_000) {
        self.clock = clock
        self.accessTTL = accessTTL
        self.refreshTTL = refreshTTL
        self.capacity = max(1, capacity)
    }

    /// How many pairs are remembered.
    public var count: Int { state.withLock { $0.access.count } }

    /// Issues a new pair for `uid`.
    public func issue(uid: Int) -> TokenPair {
        let (access, refresh) = Self.randomTokens()
        let pair = TokenPair(accessToken: "at_" + access, refreshToken: "rt_" + refresh, accessExpiresIn: accessTTL, refreshExpiresIn: refreshTTL)
        let now = clock.now
        state.withLock { state in
            state.access[pair.accessToken] = Grant(uid: uid, expiresAt: now + Int64(accessTTL), partner: pair.refreshToken)
            state.refresh[pair.refreshToken] = Grant(uid: uid, expiresAt: now + Int64(refreshTTL), partner: pair.accessToken)
            state.issued.append(pair.accessToken)
            while state.issued.count - state.oldest > capacity {
                let token = state.issued[state.oldest]
                state.oldest += 1
                if let grant = state.access.removeValue(forKey: token) { state.refresh.removeValue(forKey: grant.partner) }
            }
            if state.oldest > 4_096 && state.oldest * 2 > state.issued.count {
                state.issued.removeFirst(state.oldest)
                state.oldest = 0
            }
        }
        return pair
    }

    /// Checks `Authorization` (`Bearer <token>`).
    public func verdict(authorization: String?, scheme: String) -> TokenVerdict {
        guard let token = Self.token(in: authorization, scheme: scheme) else { return .missing }
        let now = clock.now
        return state.withLock { state in
            guard let grant = state.access[token] else { return .invalidated }
            if grant.revoked { return .revoked(uid: grant.uid) }
            if grant.expiresAt <= now { return .expired(uid: grant.uid) }
            if grant.invalidated { return .invalidated }
            return .valid(uid: grant.uid)
        }
    }

    /// The token of `<scheme> <token>`, or nil when the header is absent, of another
    /// scheme, or carries no token.
    public static func token(in authorization: String?, scheme: String) -> String? {
        guard var authorization else { return nil }
        var scheme = scheme
        // Both read in place, byte for byte (a `utf8` view's generic `starts(with:)` cost
        // 480 instructions a request); the space is ASCII, so the rest is whole UTF-8.
        return authorization.withUTF8 { bytes in
            scheme.withUTF8 { prefix in
                guard bytes.count > prefix.count + 1, bytes[prefix.count] == UInt8(ascii: " "),
                      UnsafeBufferPointer(rebasing: bytes[..<prefix.count]).elementsEqual(prefix) else { return nil }
                return String(decoding: UnsafeBufferPointer(rebasing: bytes[(prefix.count + 1)...]), as: UTF8.self)
            }
        }
    }

    /// Rotates a refresh token: a new pair; the old refresh token stops working (1007)
    /// and the old access token answers 1002 if expired, else 1005, so requests still in
    /// flight with it are retried with the new one rather than logged out.
    /// Nil when the refresh token is unknown, rotated, revoked or expired (1007).
    public func refresh(_ token: String) -> (uid: Int, pair: TokenPair)? {
        let now = clock.now
        let uid: Int? = state.withLock { state in
            guard let grant = state.refresh[token], !grant.revoked, grant.expiresAt > now else { return nil }
            state.refresh[token]?.revoked = true
            state.access[grant.partner]?.invalidated = true
            return grant.uid
        }
        return uid.map { ($0, issue(uid: $0)) }
    }

    /// Revokes the pair an access token belongs to (logout).
    public func revoke(accessToken: String) {
        state.withLock { state in
            guard let grant = state.access[accessToken] else { return }
            state.access[accessToken]?.revoked = true
            state.refresh[grant.partner]?.revoked = true
        }
    }

    /// Expires every access token (of `uid`, if given) now; their refresh tokens still work.
    /// Returns how many were expired.
    @discardableResult
    public func expireAccessTokens(uid: Int? = nil) -> Int {
        let now = clock.now
        return state.withLock { state in
            var count = 0
            for (token, grant) in state.access where uid == nil || grant.uid == uid {
                if grant.expiresAt > now { count += 1 }
                state.access[token]?.expiresAt = min(grant.expiresAt, now)
            }
            return count
        }
    }

    /// Invalidates every live access token (of `uid`, if given) on the server: they answer
    /// 1005 and their refresh tokens still work. Returns how many were invalidated.
    @discardableResult
    public func invalidateAccessTokens(uid: Int? = nil) -> Int {
        state.withLock { state in
            var count = 0
            for (token, grant) in state.access where (uid == nil || grant.uid == uid) && !grant.invalidated && !grant.revoked {
                state.access[token]?.invalidated = true
                count += 1
            }
            return count
        }
    }

    /// Revokes every token of `uid`: its next request answers 1006, its refresh 1007.
    @discardableResult
    public func forceLogout(uid: Int) -> Int {
        state.withLock { state in
            var count = 0
            for (token, grant) in state.access where grant.uid == uid && !grant.revoked {
                state.access[token]?.revoked = true
                state.refresh[grant.partner]?.revoked = true
                count += 1
            }
            return count
        }
    }

    /// Bans `uid` (every later request of it answers 1008), or lifts the ban with nil;
    /// ``StorageError/bansFull(capacity:)`` for a new ban when `capacity` users are banned.
    public func setBan(_ ban: UserBan?, uid: Int) throws(StorageError) {
        let added = state.withLock { state in
            guard ban == nil || state.bans[uid] != nil || state.bans.count < capacity else { return false }
            state.bans[uid] = ban
            return true
        }
        if !added { throw .bansFull(capacity: capacity) }
    }

    /// The ban on `uid`, if any.
    public func ban(uid: Int) -> UserBan? {
        state.withLock { $0.bans[uid] }
    }

    /// Forgets every token and ban.
    public func reset() {
        state.withLock { $0 = State() }
    }

    /// Two tokens of 32 hex characters each, from the system's secure generator.
    public static func randomTokens() -> (String, String) {
        (SecureRandom.hex(16), SecureRandom.hex(16))
    }
}
