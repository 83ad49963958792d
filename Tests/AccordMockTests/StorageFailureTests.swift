import AccordHTTP
import AccordJSON
@testable import AccordMock
@testable import AccordMocksFormat
import AccordMockState
import AccordTesting
import Testing

/// What a replica does when its shared storage fails (Redis gone): every storage
/// operation can throw, and the engine answers the failure instead of crashing or
/// pretending. Driven by a storage whose tokens, rules or journal are unreachable,
/// over the in-memory one.
struct StorageFailureTests {
    @Test func aRequestWhoseTokenCannotBeCheckedIsAnsweredUnavailableAndJournaled() throws {
        var fixture = try EngineFixture { PartlyUnreachable(base: $0, down: [.tokens]) }
        let response = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota"))
        #expect(response.status == 503)
        #expect(response.header("Retry-After") == "1")
        #expect(response.json?["data"]?["error"] == .string("storage_unavailable"))
        #expect(response.json?["msg"] == .string("the server's storage failed: connection refused (tokens)"))
        #expect(response.summary.verdict == .storageUnavailable)
        // The journal still works: it files the failure as a typed refusal, not as a violation of the contract.
        let entry = try #require(try fixture.state.journal.entries().last)
        #expect(entry.verdict == .storageUnavailable)
        #expect(entry.endpoint == "signal.quota")
        #expect(entry.problems.isEmpty)
    }

    @Test func anAnswerWhoseJournalEntryCannotBeFiledStillGoesOutAndSaysSo() throws {
        var fixture = try EngineFixture { PartlyUnreachable(base: $0, down: [.journal]) }
        let response = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota"))
        #expect(response.status == 200)
        #expect(response.code == .int(0))
        #expect(response.header(JournalStage.notFiledHeader) == "not filed: connection refused (journal)")
    }

    @Test func aControlCallOnUnreachableRulesIsAnsweredUnavailable() throws {
        var fixture = try EngineFixture { PartlyUnreachable(base: $0, down: [.rules]) }
        let listed = fixture.handle(MockRequest(method: "GET", target: "/__accord/rules"))
        #expect(listed.status == 503)
        #expect(listed.header("Retry-After") == "1")
        #expect(listed.json?["error"] == .string("storage_unavailable"))
        #expect(listed.json?["message"] == .string("the server's storage failed: connection refused (rules)"))
        // An ordinary request meets the rules too (they may inject into it): the same answer, in the contract's envelope.
        let request = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota"))
        #expect(request.status == 503)
        #expect(request.json?["data"]?["error"] == .string("storage_unavailable"))
    }

    @Test func theInMemoryStorageNeverFailsThatWay() throws {
        var fixture = try EngineFixture()
        let response = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota"))
        #expect(response.status == 200)
        #expect(response.header(JournalStage.notFiledHeader) == nil)
    }
}

/// The in-memory storage with some parts unreachable: each of their operations throws
/// ``StorageError/unavailable(_:)``, what they are configured with still reads.
struct PartlyUnreachable: MockStorage {
    enum Part { case tokens, rules, journal }

    let base: any MockStorage
    let down: Set<Part>

    var clock: any ClockStorage { base.clock }
    var nonces: any NonceStorage { base.nonces }
    var tokens: any TokenStorage { down.contains(.tokens) ? UnreachableTokens(base: base.tokens) : base.tokens }
    var rules: any RuleStorage { down.contains(.rules) ? UnreachableRules(capacity: base.rules.capacity) : base.rules }
    var scenarios: any ScenarioStorage { base.scenarios }
    var journal: any JournalStorage { down.contains(.journal) ? UnreachableJournal(capacity: base.journal.capacity) : base.journal }
    var collections: any RecordStorage { base.collections }
    var uploads: any UploadStorage { base.uploads }
    func nextSequence() throws(StorageError) -> Int { try base.nextSequence() }
    var cursorSecret: [UInt8] { get throws(StorageError) { try base.cursorSecret } }
}

private func refused(_ part: String) -> StorageError {
    .unavailable("connection refused (\(part))")
}

private struct UnreachableTokens: TokenStorage {
    let base: any TokenStorage
    var accessTTL: Int { base.accessTTL }
    var refreshTTL: Int { base.refreshTTL }
    var capacity: Int { base.capacity }
    var count: Int { get throws(StorageError) { throw refused("tokens") } }
    func issue(uid: Int) throws(StorageError) -> TokenPair { throw refused("tokens") }
    func verdict(authorization: String?, scheme: String) throws(StorageError) -> TokenVerdict { throw refused("tokens") }
    func refresh(_ token: String) throws(StorageError) -> (uid: Int, pair: TokenPair)? { throw refused("tokens") }
    func revoke(accessToken: String) throws(StorageError) { throw refused("tokens") }
    func expireAccessTokens(uid: Int?) throws(StorageError) -> Int { throw refused("tokens") }
    func invalidateAccessTokens(uid: Int?) throws(StorageError) -> Int { throw refused("tokens") }
    func forceLogout(uid: Int) throws(StorageError) -> Int { throw refused("tokens") }
    func setBan(_ ban: UserBan?, uid: Int) throws(StorageError) { throw refused("tokens") }
    func ban(uid: Int) throws(StorageError) -> UserBan? { throw refused("tokens") }
    func reset() throws(StorageError) { throw refused("tokens") }
}

private struct UnreachableRules: RuleStorage {
    let capacity: Int
    var all: [InjectionRule] { get throws(StorageError) { throw refused("rules") } }
    func add(_ rule: InjectionRule) throws(StorageError) -> InjectionRule { throw refused("rules") }
    func remove(id: Int) throws(StorageError) -> Bool { throw refused("rules") }
    func removeAll() throws(StorageError) { throw refused("rules") }
    func fire(endpoint: String, user: Int?, session: String) throws(StorageError) -> InjectionRule? { throw refused("rules") }
}

private struct UnreachableJournal: JournalStorage {
    let capacity: Int
    var recordingStatus: JournalRecorder.Status? { nil }
    func add(_ entry: JournalEntry, judgedBy flows: FlowMonitor?) throws(StorageError) -> JournalEntry { throw refused("journal") }
    func entries(matching filter: JournalFilter, limit: Int) throws(StorageError) -> [JournalEntry] { throw refused("journal") }
    func clear() throws(StorageError) { throw refused("journal") }
}
