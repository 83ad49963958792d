import Synchronization

/// The state of one `accord serve` process, in its memory: the default ``MockStorage``.
public final class InMemoryStorage: MockStorage {
    public let clock: any ClockStorage
    public let nonces: any NonceStorage
    public let tokens: any TokenStorage
    public let rules: any RuleStorage
    public let scenarios: any ScenarioStorage
    public let journal: any JournalStorage
    public let collections: any RecordStorage
    public let uploads: any UploadStorage
    public let cursorSecret: [UInt8]
    private let sequence = Atomic<Int>(0)

    /// - Parameters:
    ///   - random: the source of `percent` draws for injection rules.
    public init(clock: MockClock = MockClock(), nonceTTLSeconds: Int, accessTTL: Int = 7_200, refreshTTL: Int = 2_592_000,
                journal: Journal = Journal(), collections: CollectionStore = CollectionStore(), uploads: UploadStore = UploadStore(),
                random: @escaping @Sendable () -> Double) {
        self.clock = clock
        nonces = NonceCache(ttlSeconds: nonceTTLSeconds)
        tokens = TokenStore(clock: clock, accessTTL: accessTTL, refreshTTL: refreshTTL)
        rules = InjectionRules(random: random)
        scenarios = ScenarioProgress()
        self.journal = journal
        self.collections = collections
        self.uploads = uploads
        cursorSecret = SecureRandom.bytes(32)
    }

    public func nextSequence() -> Int {
        sequence.add(1, ordering: .relaxed).newValue
    }
}
