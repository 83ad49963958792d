import AccordRedis
import Foundation

/// The two small shared values nearly every part asks on a request, the clock's offset
/// and the rules' version (and, read by the token check, the user's ban), read once per request in one round trip (`MGET`, or beside
/// the nonce's `SET NX` in the same pipeline) and kept for that request on its thread.
/// A request is handled on one thread from start to answer; ``begin()`` (the engine's
/// ``MockStorage/beginRequest()``) forgets the previous request's values, and a change
/// this replica makes to either forgets them too, so a request never reads past its own write.
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
    /// The thread dictionary's key: one per storage, as tests hold several in one process.
    private let key: String
    private let banKey: String

    init(client: RedisClient) {
        self.client = client
        key = "accord.redis.snapshot.\(client.url.prefix).\(UInt(bitPattern: ObjectIdentifier(client).hashValue))"
        banKey = key + ".ban"
    }

    /// The commands that read the values, to pipeline with another.
    var commands: [RedisCommand] { [RedisCommand("MGET", client.key("clock", "offset"), client.key("rules", "version"))] }

    /// What a thread keeps: the values and until when they hold.
    private final class Kept {
        let values: Values
        let until: ContinuousClock.Instant

        init(values: Values, until: ContinuousClock.Instant) {
            self.values = values
            self.until = until
        }
    }

    /// Whether this request holds values yet.
    var isTaken: Bool {
        guard let kept = Thread.current.threadDictionary[key] as? Kept else { return false }
        return ContinuousClock.now < kept.until
    }

    func begin() {
        Thread.current.threadDictionary.removeObject(forKey: key)
        Thread.current.threadDictionary.removeObject(forKey: banKey)
    }

    /// A user's ban as a token check read it: its stored JSON, or nil for none.
    final class Ban {
        let uid: Int
        let bytes: [UInt8]?
        let until: ContinuousClock.Instant

        init(uid: Int, bytes: [UInt8]?, until: ContinuousClock.Instant) {
            self.uid = uid
            self.bytes = bytes
            self.until = until
        }
    }

    /// Keeps what the token check read of `uid`'s ban, for the ban check right after it.
    func keepBan(_ bytes: [UInt8]?, uid: Int) {
        Thread.current.threadDictionary[banKey] = Ban(uid: uid, bytes: bytes, until: .now + Self.lifetime)
    }

    /// What this request read of `uid`'s ban, if it did.
    func ban(of uid: Int) -> Ban? {
        guard let seen = Thread.current.threadDictionary[banKey] as? Ban, seen.uid == uid, ContinuousClock.now < seen.until else { return nil }
        return seen
    }

    /// Keeps the values `reply` (of ``commands``) read, for the rest of the request.
    @discardableResult
    func keep(_ reply: RedisReply) throws(RedisError) -> Values {
        guard let parts = reply.elements, parts.count == 2 else { throw .unexpected("MGET answered \(reply)") }
        let values = Values(offset: parts[0].integer ?? 0, rulesVersion: parts[1].integer ?? 0)
        Thread.current.threadDictionary[key] = Kept(values: values, until: .now + Self.lifetime)
        return values
    }

    /// This request's values, read now if it has not read them.
    var values: Values {
        get throws(RedisError) {
            if let kept = Thread.current.threadDictionary[key] as? Kept, ContinuousClock.now < kept.until { return kept.values }
            return try keep(try client.send(commands)[0])
        }
    }
}
