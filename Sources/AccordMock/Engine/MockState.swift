import AccordSigning
import Synchronization

/// State shared by every request and kept across hot reloads: the nonce cache, the
/// `{{seq}}` counter and the seeded random generator.
public final class MockState: Sendable {
    public let nonces: NonceCache
    private let sequence = Atomic<Int>(0)
    private let generator: Mutex<SplitMix64>

    public init(nonceTTLSeconds: Int, seed: UInt64 = 0) {
        nonces = NonceCache(ttlSeconds: nonceTTLSeconds)
        generator = Mutex(SplitMix64(seed: seed))
    }

    /// 1, 2, 3, … across the server's life.
    public func nextSequence() -> Int {
        sequence.add(1, ordering: .relaxed).newValue
    }

    /// A number in `range` from the seeded generator: the same seed gives the same sequence.
    public func random(in range: ClosedRange<Int>) -> Int {
        generator.withLock { Int.random(in: range, using: &$0) }
    }
}

/// A small, fast, seedable generator (Vigna's SplitMix64).
struct SplitMix64: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
