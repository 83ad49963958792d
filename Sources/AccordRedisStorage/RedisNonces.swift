import AccordMock
import AccordMockState
import AccordRedis

/// Nonces in Redis: one `SET PREFIX:nonce:APP:NONCE 1 NX EX TTL` each, the check and the
/// set in one atomic step, so two replicas given the same nonce never both accept it.
/// Memory is bounded by the window: a key lives `ttlSeconds`.
final class RedisNonces: NonceStorage {
    private let client: RedisClient
    let ttlSeconds: Int

    private let snapshot: RequestSnapshot

    init(client: RedisClient, snapshot: RequestSnapshot, ttlSeconds: Int) {
        self.client = client
        self.snapshot = snapshot
        self.ttlSeconds = max(1, ttlSeconds)
    }

    /// Redis holds as many as its memory allows; the window bounds them.
    var capacity: Int { .max }

    var count: Int {
        get throws(StorageError) { try shared { () throws(RedisError) in try client.countKeys(matching: "nonce:*") } }
    }

    func insert(appKey: String, nonce: String, now: Int64) throws(StorageError) -> NonceOutcome {
        let key = client.key("nonce", appKey, nonce)
        // Stored by the request's prelude, with all it reads besides: its one round trip.
        if let isNew = try shared({ () throws(RedisError) in try snapshot.open(nonceKey: key, nonceTTL: ttlSeconds) }) { return isNew ? .accepted : .reused }
        // Outside a previewed request, the clock offset and the rules' version ride along.
        let set = RedisCommand("SET", key, "1", "NX", "EX", ttlSeconds)
        let reply = try shared { () throws(RedisError) in
            guard !snapshot.isTaken else { return try client.send(set) }
            let replies = try client.send([set] + snapshot.commands)
            try snapshot.keep(replies[1])
            if let message = replies[0].errorMessage { throw .reply("SET: \(message)") }
            return replies[0]
        }
        switch reply {
        case .status("OK"): return .accepted
        case .null: return .reused
        default: throw .unavailable("Redis: SET NX answered \(reply)")
        }
    }

    /// Deletes the nonce's key: every replica takes its next use as new.
    func release(appKey: String, nonce: String) throws(StorageError) {
        let delete = RedisCommand("DEL", client.key("nonce", appKey, nonce))
        _ = try shared { () throws(RedisError) in try client.send(delete) }
    }
}
