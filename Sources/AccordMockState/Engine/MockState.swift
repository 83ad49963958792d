import AccordReport
import AccordSync

/// State shared by every request and kept across hot reloads: the clocks, tokens,
/// nonces, injection rules, scenario progress, the journal, the collections' records and
/// `{{seq}}`, all in one ``MockStorage`` (in this process's memory by default); and,
/// per process, the report's observations and the seeded random generator.
public final class MockState: Sendable {
    /// Where the mutable state lives.
    public let storage: any MockStorage
    public var clock: any ClockStorage { storage.clock }
    public var nonces: any NonceStorage { storage.nonces }
    public var tokens: any TokenStorage { storage.tokens }
    public var rules: any RuleStorage { storage.rules }
    public var scenarios: any ScenarioStorage { storage.scenarios }
    public var journal: any JournalStorage { storage.journal }
    /// The records of the collections, per session.
    public var collections: any RecordStorage { storage.collections }
    public var uploads: any UploadStorage { storage.uploads }
    /// Every request counted for the run's report (`--report`, `GET /__accord/report`).
    public let observations = Observations()
    /// The journal's new entries as they come, for `GET /__accord/events`.
    public let events = JournalFeed()
    /// How `POST /__accord/shutdown` reaches the process that serves.
    public let shutdown = ShutdownSwitch()
    /// Signs list cursors (``PageCursor``): random per storage, so a cursor from another
    /// run, or made up, is refused.
    package var cursorSecret: [UInt8] { get throws(StorageError) { try storage.cursorSecret } }
    private let generator: SeededRandom

    /// State in `storage`, with the random generator seeded by `seed`.
    public convenience init(storage: any MockStorage, seed: UInt64 = 0) {
        self.init(storage: storage, generator: SeededRandom(seed: seed))
    }

    /// State in the storage `make` gives, which draws `percent` rules from the generator seeded by `seed`.
    public convenience init<Failure: Error>(seed: UInt64,
                                            storage make: (_ random: @escaping @Sendable () -> Double) throws(Failure) -> any MockStorage) throws(Failure) {
        let generator = SeededRandom(seed: seed)
        self.init(storage: try make { generator.unit() }, generator: generator)
    }

    /// State in this process's memory (``InMemoryStorage``).
    public convenience init(clock: MockClock = MockClock(), nonceTTLSeconds: Int, accessTTL: Int = 7_200, refreshTTL: Int = 2_592_000,
                            seed: UInt64 = 0, journal: Journal = Journal(), collections: CollectionStore = CollectionStore(),
                            uploads: UploadStore = UploadStore()) {
        let generator = SeededRandom(seed: seed)
        let storage = InMemoryStorage(clock: clock, nonceTTLSeconds: nonceTTLSeconds, accessTTL: accessTTL, refreshTTL: refreshTTL,
                                      journal: journal, collections: collections, uploads: uploads, random: { generator.unit() })
        self.init(storage: storage, generator: generator)
    }

    private init(storage: any MockStorage, generator: SeededRandom) {
        self.storage = storage
        self.generator = generator
        (storage.journal as? any SharedJournalStorage)?.follow(into: events)
    }

    /// 1, 2, 3, … across the server's life.
    public func nextSequence() throws(StorageError) -> Int {
        try storage.nextSequence()
    }

    /// A number in `range` from the seeded generator: the same seed gives the same sequence.
    public func random(in range: ClosedRange<Int>) -> Int {
        generator.next(in: range)
    }

    /// A version-4 UUID from the seeded generator (`{{uuid}}`): unique across the
    /// server's life, and the same sequence for the same seed.
    public func uuid() -> String {
        var bytes = withUnsafeBytes(of: generator.nextBits().bigEndian, Array.init) + withUnsafeBytes(of: generator.nextBits().bigEndian, Array.init)
        bytes[6] = bytes[6] & 0x0F | 0x40
        bytes[8] = bytes[8] & 0x3F | 0x80
        let hex = bytes.map { byte in String(byte >> 4, radix: 16) + String(byte & 0x0F, radix: 16) }
        return [hex[0..<4], hex[4..<6], hex[6..<8], hex[8..<10], hex[10..<16]].map { $0.joined() }.joined(separator: "-")
    }

    /// Forgets tokens, bans, rules, scenario progress, the journal and every session's
    /// records (back to the seeds), and returns to the wall clock. The report's
    /// observations stay: a test suite resets between tests and still wants one report
    /// of the whole run.
    public func reset() throws(StorageError) {
        try collections.reset(session: nil)
        try tokens.reset()
        try rules.removeAll()
        try scenarios.reset()
        try journal.clear()
        try uploads.reset()
        try clock.reset()
    }
}

/// A seeded generator shared across threads (``SplitMix``).
package final class SeededRandom: Sendable {
    private let state: Locked<SplitMix>

    package init(seed: UInt64) {
        state = Locked(SplitMix(seed: seed))
    }

    package func next(in range: ClosedRange<Int>) -> Int {
        var generator = Generator(source: self)
        return Int.random(in: range, using: &generator)
    }

    /// A number in 0..<1.
    package func unit() -> Double {
        Double(nextBits() >> 11) / Double(1 << 53)
    }

    /// 64 random bits.
    package func nextBits() -> UInt64 {
        state.withLock { $0.next() }
    }

    private struct Generator: RandomNumberGenerator {
        let source: SeededRandom
        mutating func next() -> UInt64 { source.nextBits() }
    }
}

/// Vigna's SplitMix64: the same seed gives the same sequence. Its arithmetic wraps by design (`&+`, `&*`).
package struct SplitMix: RandomNumberGenerator, Sendable {
    private var state: UInt64

    package init(seed: UInt64) {
        state = seed
    }

    /// `seed` mixed with `text` (FNV-1a of its bytes): the same on every replica and in
    /// every run, unlike `Hasher`, and different for different texts.
    package static func seed(_ seed: UInt64, mixedWith text: String) -> UInt64 {
        seed ^ text.utf8.reduce(0xCBF2_9CE4_8422_2325 as UInt64) { hash, byte in (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
    }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
