import Synchronization

/// Remembers the nonces seen per app key for a fixed time, in bounded memory.
///
/// Entries are 64-bit hashes of (app key, nonce) with their expiry, kept in arrival
/// order; expired ones are dropped as new ones arrive. When `capacity` live entries
/// are held, the oldest is forgotten early, so memory stays flat under any load; the
/// timestamp window still refuses a replay once its timestamp is stale.
public final class NonceCache: Sendable {
    private struct State {
        var seen: Set<UInt64> = []
        /// (hash, expiry) in arrival order; `head` is the oldest live slot.
        var queue: [(hash: UInt64, expiry: Int64)] = []
        var head = 0
    }

    private let state = Mutex(State())
    private let ttl: Int64
    public let capacity: Int
    private let seed: UInt64

    /// - Parameters:
    ///   - ttlSeconds: how long a nonce is remembered.
    ///   - capacity: the most nonces held at once.
    public init(ttlSeconds: Int, capacity: Int = 100_000) {
        self.ttl = Int64(ttlSeconds)
        self.capacity = max(1, capacity)
        self.seed = UInt64.random(in: .min ... .max)
    }

    /// Records the nonce; returns false if it was already seen within the TTL.
    public func insert(appKey: String, nonce: String, now: Int64) -> Bool {
        var hasher = Hasher()
        hasher.combine(seed)
        hasher.combine(appKey)
        hasher.combine(nonce)
        let hash = UInt64(bitPattern: Int64(hasher.finalize()))
        return state.withLock { state in
            while state.head < state.queue.count,
                  state.queue[state.head].expiry <= now || state.queue.count - state.head >= capacity {
                state.seen.remove(state.queue[state.head].hash)
                state.head += 1
            }
            if state.head > 4_096 && state.head * 2 > state.queue.count {
                state.queue.removeFirst(state.head)
                state.head = 0
            }
            guard state.seen.insert(hash).inserted else { return false }
            state.queue.append((hash, now + ttl))
            return true
        }
    }

    /// How many nonces are remembered now.
    public var count: Int { state.withLock { $0.seen.count } }
}
