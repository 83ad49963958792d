import AccordMock
import AccordMockState
import AccordRedis
import Foundation

/// What one request reads of Redis, read in its first round trip and kept for the
/// request on its thread. Told what the routed request will read (``expect(_:)``, from
/// ``MockStorage/preview(_:)``), the first part to need Redis sends ``RequestScript/prelude``:
/// the nonce, the clock's offset, the rules' version, the token's verdict with its user's
/// ban, the session's scenario and a `{{seq}}` number, in one script. A request is
/// handled on one thread from start to answer; ``begin()`` (``MockStorage/beginRequest()``)
/// forgets the previous request's values, and a change this replica makes to the offset,
/// the rules or a ban forgets them too, so a request never reads past its own write.
/// Values older than ``lifetime`` are read again, which bounds what a caller outside a
/// request (a reload, a test calling the storage itself) can miss of another replica's change.
final class RequestSnapshot: Sendable {
    struct Values: Equatable {
        var offset: Int64
        var rulesVersion: Int64
    }

    /// How long kept values hold.
    static let lifetime: Duration = .milliseconds(50)
    private let client: RedisClient
    private let wall: MockClock
    /// `{{seq}}` numbers reserved ahead and not yet used.
    let parked: ParkedSequences
    /// The thread dictionary's key: one per storage, as tests hold several in one process.
    private let key: String

    init(client: RedisClient, wall: MockClock, parked: ParkedSequences) {
        self.client = client
        self.wall = wall
        self.parked = parked
        key = "accord.redis.snapshot.\(client.url.prefix).\(UInt(bitPattern: ObjectIdentifier(client).hashValue))"
    }

    /// The commands that read the values, to pipeline with another.
    var commands: [RedisCommand] { [RedisCommand("MGET", client.key("clock", "offset"), client.key("rules", "version"))] }

    /// What a thread keeps of its request, and until when it holds.
    private final class Kept {
        /// What the request will read, until its first round trip reads it.
        var expected: RequestPreview?
        var values: Values?
        var verdict: RequestScript.Verdict?
        var ban: (uid: Int, bytes: [UInt8]?)?
        var position: RequestScript.Position?
        let until: ContinuousClock.Instant

        init(expected: RequestPreview? = nil, until: ContinuousClock.Instant = .now + RequestSnapshot.lifetime) {
            self.expected = expected
            self.until = until
        }
    }

    private var kept: Kept? {
        guard let kept = Thread.current.threadDictionary[key] as? Kept, ContinuousClock.now < kept.until else { return nil }
        return kept
    }

    private func keeping() -> Kept {
        if let kept { return kept }
        let fresh = Kept()
        Thread.current.threadDictionary[key] = fresh
        return fresh
    }

    func begin() {
        Thread.current.threadDictionary.removeObject(forKey: key)
    }

    /// The routed request will read what `preview` says: its first round trip reads it all.
    func expect(_ preview: RequestPreview) {
        Thread.current.threadDictionary[key] = Kept(expected: preview)
    }

    /// Sends the request's prelude, when it expects one and has not sent it, with the nonce
    /// to store (`SET NX`) if given: whether the nonce was new, or nil when no prelude was sent.
    @discardableResult
    func open(nonceKey: String? = nil, nonceTTL: Int = 0) throws(RedisError) -> Bool? {
        guard let kept, let expected = kept.expected else { return nil }
        kept.expected = nil
        let reserve = expected.takesSequence && parked.isEmpty
        let arguments: [any RedisArgument] = [client.url.prefix, nonceKey ?? "", nonceTTL, expected.accessToken ?? "", expected.namedSession ?? "",
                                              wall.wallNow, reserve ? 1 : 0]
        let read = try RequestScript.Read(client.run(RequestScript.prelude, keys: [], arguments: arguments), token: expected.accessToken)
        guard read.nonceIsNew else { return false }
        kept.values = read.values
        kept.verdict = read.verdict
        kept.position = read.position
        if let number = read.sequence { parked.park(number) }
        return true
    }

    /// What the prelude read of `token`, once: a second check of it asks Redis again.
    func verdict(of token: String) throws(RedisError) -> RequestScript.Verdict.Outcome? {
        try open()
        guard let kept, let verdict = kept.verdict, verdict.token == token else { return nil }
        kept.verdict = nil
        return verdict.outcome
    }

    /// Keeps what a token check read of `uid`'s ban, for the ban check right after it.
    func keepBan(_ bytes: [UInt8]?, uid: Int) {
        keeping().ban = (uid, bytes)
    }

    /// What this request read of `uid`'s ban, if it did.
    func ban(of uid: Int) -> (uid: Int, bytes: [UInt8]?)? {
        guard let seen = kept?.ban, seen.uid == uid else { return nil }
        return seen
    }

    /// What the prelude read of `session`'s scenario; `consuming` forgets it (a step about to be moved reads afresh if it retries).
    func position(of session: String, consuming: Bool) throws(RedisError) -> RequestScript.Position? {
        try open()
        guard let kept, let position = kept.position, position.session == session else { return nil }
        if consuming { kept.position = nil }
        return position
    }

    /// Keeps the values `reply` (of ``commands``) read, for the rest of the request.
    @discardableResult
    func keep(_ reply: RedisReply) throws(RedisError) -> Values {
        guard let parts = reply.elements, parts.count == 2 else { throw .unexpected("MGET answered \(reply)") }
        let values = Values(offset: parts[0].integer ?? 0, rulesVersion: parts[1].integer ?? 0)
        keeping().values = values
        return values
    }

    /// Whether this request holds values yet.
    var isTaken: Bool { kept?.values != nil }

    /// This request's values, read now if it has not read them.
    var values: Values {
        get throws(RedisError) {
            try open()
            if let values = kept?.values { return values }
            return try keep(try client.send(commands)[0])
        }
    }
}
