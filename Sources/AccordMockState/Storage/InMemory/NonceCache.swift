import AccordSync

/// Remembers the nonces seen per app key for their whole time to live, whatever the
/// load, in memory sized to the traffic of that time.
///
/// Each nonce is kept as one 64-bit word in an open-addressing table (linear probing):
/// 47 bits of a keyed hash of (app key, nonce) and 16 bits of its arrival tick, the
/// TTL cut into at most ``maxBuckets`` ticks. An entry is live while its age in ticks
/// is at most the TTL's, so a nonce is refused for at least `ttlSeconds` (and at most
/// one tick longer), never forgotten early. Expired entries are reclaimed in place by
/// later inserts and dropped whenever the table is rebuilt: when it fills to 85%, at
/// least every 32,768 ticks, and all at once when the clock moves past the TTL since
/// the last insert, so that no 16-bit age can wrap.
///
/// Memory is 8 bytes a slot at 60–85% load, about 9.4–13.3 bytes a live nonce, so it
/// follows the request rate times the TTL: 1 M nonces ≈ 9.4–13.3 MB. To stay bounded under a
/// flood, at most ``capacity`` nonces are held; past that, new nonces are refused as
/// ``NonceOutcome/full`` until old ones expire — failing closed, because forgetting early
/// would let a replay through. Two nonces whose 47-bit hashes agree are taken for one:
/// with 1 M live nonces that refuses about one fresh request in 140 million.
public final class NonceCache: Sendable {
    /// The default cap: 4 M nonces, at most about 53 MB; 6,600 requests a second sustained over a 600 s TTL.
    public static let defaultCapacity = 4_000_000
    /// The most ticks the TTL is cut into.
    public static let maxBuckets = 1_024

    private struct State {
        var table = NonceTable()
        /// The latest tick seen; a clock that steps back files nonces here.
        var latest: Int64?
        /// The tick of the last rebuild, for the sweep that keeps ages from wrapping.
        var rebuiltAt: Int64 = 0
        /// The tick at which the table was last found full.
        var fullAt: Int64?
        /// Fingerprints of nonces released (``release(appKey:nonce:)``), each taken as new once.
        var released: Set<UInt64> = []
    }

    /// The most nonces released and not yet used again; past it a release is dropped, so
    /// the resend is refused as a replay (closed, as when the table is full).
    public static let releaseLimit = 4_096

    private let state: Locked<State>
    /// Seconds per tick.
    private let width: Int64
    /// The TTL in ticks, rounded up: an entry of this age is still live.
    private let span: UInt16
    public let capacity: Int
    private let seed: UInt64

    /// - Parameters:
    ///   - ttlSeconds: how long a nonce is remembered (at least one second).
    ///   - capacity: the most nonces held at once.
    public init(ttlSeconds: Int, capacity: Int = NonceCache.defaultCapacity) {
        let ttl = Int64(max(1, ttlSeconds))
        width = max(1, (ttl + Int64(Self.maxBuckets) - 1) / Int64(Self.maxBuckets))
        span = UInt16((ttl + width - 1) / width)
        state = Locked(State())
        self.capacity = max(1, capacity)
        seed = UInt64.random(in: .min ... .max)
    }

    /// Records the nonce at `now` (Unix seconds) unless it was seen within the TTL.
    public func insert(appKey: String, nonce: String, now: Int64) -> NonceOutcome {
        let hash = hash(appKey: appKey, nonce: nonce)
        let tick = now / width
        return state.withLock { state in
            // A clock that steps back files the nonce with the latest tick: kept longer, never shorter.
            let current = max(tick, state.latest ?? tick)
            // Every entry is at most as recent as the latest tick: past the TTL since, all expired.
            if state.latest.map({ current - $0 > Int64(span) }) ?? true {
                state.table = NonceTable()
                state.rebuiltAt = current
            }
            state.latest = current
            // Entries then span less than 32,768 ticks plus the TTL, so their 16-bit ages cannot wrap.
            if current - state.rebuiltAt >= 32_768 {
                state.table.rebuild(keepingLiveAt: current, span: span)
                state.rebuiltAt = current
            }
            let fingerprint = NonceTable.fingerprint(of: hash)
            if state.table.containsLive(fingerprint, at: current, span: span) {
                return state.released.remove(fingerprint) == nil ? .reused : .accepted
            }
            if state.table.liveBound >= capacity {
                // Only a later tick can have expired anything: one rebuild per tick while full.
                guard state.fullAt != current else { return .full }
                state.table.rebuild(keepingLiveAt: current, span: span)
                state.rebuiltAt = current
                guard state.table.liveBound < capacity else {
                    state.fullAt = current
                    return .full
                }
            }
            state.table.insert(fingerprint, at: current, span: span)
            return .accepted
        }
    }

    /// Takes the nonce's next use as new, once (``NonceStorage/release(appKey:nonce:)``).
    public func release(appKey: String, nonce: String) {
        let fingerprint = NonceTable.fingerprint(of: hash(appKey: appKey, nonce: nonce))
        state.withLock { state in
            if state.released.count < Self.releaseLimit { state.released.insert(fingerprint) }
        }
    }

    /// The keyed hash of (app key, nonce) the table keeps a fingerprint of.
    private func hash(appKey: String, nonce: String) -> UInt64 {
        var hasher = Hasher()
        hasher.combine(seed)
        hasher.combine(appKey)
        hasher.combine(nonce)
        return UInt64(bitPattern: Int64(hasher.finalize()))
    }

    /// How many nonces are remembered now (a scan of the table; for tests and reports).
    public var count: Int {
        state.withLock { state in state.latest.map { state.table.liveCount(at: $0, span: span) } ?? 0 }
    }
}

/// The open-addressing table of ``NonceCache``: slots of fingerprint (high 48 bits, the
/// top one always set so no entry is 0) and tick (low 16 bits); 0 is an empty slot.
///
/// The table is any size, not a power of two: a fingerprint's home is its hash scaled to
/// the slot count, so a rebuild sizes the table to its live entries at 60% load, not to
/// the next power of two (which would hold 1 M nonces in 16 MB instead of about 13).
package struct NonceTable {
    private var slots: [UInt64]
    /// Slots holding an entry, live or expired.
    private var used = 0
    /// Live entries at the last rebuild plus those inserted since: never below the live count.
    package private(set) var liveBound = 0
    /// The smallest table, whatever the load.
    package static let minimumSlots = 1_024

    package init() {
        self.init(slotCount: Self.minimumSlots)
    }

    private init(slotCount: Int) {
        slots = Array(repeating: 0, count: slotCount)
    }

    /// How many slots the table has now.
    package var slotCount: Int { slots.count }

    /// The stored form of a hash, without its tick.
    package static func fingerprint(of hash: UInt64) -> UInt64 {
        (hash | 1 << 63) & ~0xFFFF
    }

    @inline(__always)
    private static func isLive(_ slot: UInt64, at tick: Int64, span: UInt16) -> Bool {
        UInt16(truncatingIfNeeded: tick) &- UInt16(truncatingIfNeeded: slot) <= span
    }

    /// The fingerprint's 47 hash bits, as a fraction of the table, scaled to its slots.
    @inline(__always)
    private func home(of fingerprint: UInt64) -> Int {
        Int(truncatingIfNeeded: (fingerprint << 1).multipliedFullWidth(by: UInt64(slots.count)).high)
    }

    @inline(__always)
    private func slot(after index: Int) -> Int {
        index + 1 == slots.count ? 0 : index + 1
    }

    /// Whether a live entry with this fingerprint is in the table.
    package func containsLive(_ fingerprint: UInt64, at tick: Int64, span: UInt16) -> Bool {
        var index = home(of: fingerprint)
        while slots[index] != 0 {
            if slots[index] & ~0xFFFF == fingerprint && Self.isLive(slots[index], at: tick, span: span) { return true }
            index = slot(after: index)
        }
        return false
    }

    /// Files `fingerprint` at `tick`, in the first expired slot of its chain or at its end.
    package mutating func insert(_ fingerprint: UInt64, at tick: Int64, span: UInt16) {
        if (used + 1) * 100 > slots.count * 85 { rebuild(keepingLiveAt: tick, span: span) }
        let entry = fingerprint | UInt64(UInt16(truncatingIfNeeded: tick))
        var index = home(of: fingerprint)
        while slots[index] != 0 && Self.isLive(slots[index], at: tick, span: span) {
            index = slot(after: index)
        }
        if slots[index] == 0 { used += 1 }
        slots[index] = entry
        liveBound += 1
    }

    /// Live entries now.
    package func liveCount(at tick: Int64, span: UInt16) -> Int {
        slots.reduce(0) { $0 + ($1 != 0 && Self.isLive($1, at: tick, span: span) ? 1 : 0) }
    }

    /// Drops expired entries into a table sized for the live ones at 60% load.
    package mutating func rebuild(keepingLiveAt tick: Int64, span: UInt16) {
        let live = liveCount(at: tick, span: span)
        var table = NonceTable(slotCount: max(Self.minimumSlots, (live * 100 + 59) / 60))
        for entry in slots where entry != 0 && Self.isLive(entry, at: tick, span: span) {
            var index = table.home(of: entry & ~0xFFFF)
            while table.slots[index] != 0 { index = table.slot(after: index) }
            table.slots[index] = entry
        }
        table.used = live
        table.liveBound = live
        self = table
    }
}
