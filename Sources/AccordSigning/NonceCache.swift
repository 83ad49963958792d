import AccordSync

/// Remembers the nonces seen per app key for their whole time to live, whatever the
/// load, in memory sized to the traffic of that time.
///
/// Each nonce is kept as a 64-bit keyed hash of (app key, nonce) in one set for
/// lookups, and in the time bucket of its arrival for expiry: a ring of at most
/// ``maxBuckets`` buckets spanning the TTL, emptied as the clock passes them. A nonce
/// is therefore refused for at least `ttlSeconds` (and at most one bucket longer),
/// never forgotten early.
///
/// Memory is about 20–40 bytes a nonce (set slot plus bucket slot), so it follows the
/// request rate times the TTL: 1 M nonces ≈ 30 MB. To stay bounded under a flood,
/// at most ``capacity`` nonces are held; past that, new nonces are refused as
/// ``Outcome/full`` until old ones expire — failing closed, because forgetting early
/// would let a replay through.
public final class NonceCache: Sendable {
    /// What inserting a nonce found.
    public enum Outcome: Sendable, Equatable {
        /// First use within the TTL: remembered now.
        case accepted
        /// Seen within the TTL: a replay.
        case reused
        /// ``capacity`` nonces are live; this one was not checked and must be refused.
        case full
    }

    /// The default cap: 4 M nonces, about 80–160 MB; 6,600 requests a second sustained over a 600 s TTL.
    public static let defaultCapacity = 4_000_000
    /// The most time buckets: the TTL is cut into at most this many.
    public static let maxBuckets = 1_024

    private struct State {
        var seen: Set<UInt64> = []
        var buckets: [[UInt64]]
        /// The bucket time (seconds / width) up to which buckets are current; older ones were emptied.
        var latest: Int64?
    }

    private let state: Locked<State>
    private let ttl: Int64
    /// Seconds per bucket.
    private let width: Int64
    public let capacity: Int
    private let seed: UInt64

    /// - Parameters:
    ///   - ttlSeconds: how long a nonce is remembered (at least one second).
    ///   - capacity: the most nonces held at once.
    public init(ttlSeconds: Int, capacity: Int = NonceCache.defaultCapacity) {
        ttl = Int64(max(1, ttlSeconds))
        width = max(1, (ttl + Int64(Self.maxBuckets) - 1) / Int64(Self.maxBuckets))
        // Buckets for the TTL plus the one being filled.
        let count = Int((ttl + width - 1) / width) + 1
        state = Locked(State(buckets: Array(repeating: [], count: count)))
        self.capacity = max(1, capacity)
        seed = UInt64.random(in: .min ... .max)
    }

    /// Records the nonce at `now` (Unix seconds) unless it was seen within the TTL.
    public func insert(appKey: String, nonce: String, now: Int64) -> Outcome {
        var hasher = Hasher()
        hasher.combine(seed)
        hasher.combine(appKey)
        hasher.combine(nonce)
        let hash = UInt64(bitPattern: Int64(hasher.finalize()))
        let bucketTime = now / width
        return state.withLock { state in
            // A clock that steps back files the nonce with the latest bucket: kept longer, never shorter.
            let time = max(bucketTime, state.latest ?? bucketTime)
            expire(&state, upTo: time)
            if state.seen.contains(hash) { return .reused }
            guard state.seen.count < capacity else { return .full }
            state.seen.insert(hash)
            state.buckets[Int(time % Int64(state.buckets.count))].append(hash)
            return .accepted
        }
    }

    /// Empties the buckets that the clock has moved past, so that the one for `time` is fresh.
    private func expire(_ state: inout State, upTo time: Int64) {
        let count = Int64(state.buckets.count)
        guard let latest = state.latest else {
            state.latest = time
            return
        }
        guard time > latest else { return }
        // Each bucket between the last one filled and `time` is reused for a new time: forget what it held.
        for step in (latest + 1)...min(time, latest + count) {
            let index = Int(step % count)
            for hash in state.buckets[index] { state.seen.remove(hash) }
            state.buckets[index].removeAll(keepingCapacity: true)
        }
        state.latest = time
    }

    /// How many nonces are remembered now.
    public var count: Int { state.withLock { $0.seen.count } }
}
