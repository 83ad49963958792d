import AccordHTTP
import AccordJSON
@testable import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordTesting
import Foundation
import Testing

/// What every ``MockStorage`` driver must do, part by part, run against the in-memory
/// one and against Redis (a real `redis-server` the tests start): the same calls, the
/// same answers.
@Suite struct StorageContractTests {
    private let wall: Int64 = 1_796_025_600
    private let project = Repository.project

    @Test(arguments: StorageDriver.allCases) func theClockMovesWithinAHundredYears(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: wall)
        #expect(try storage.clock.now == wall)
        try storage.clock.advance(by: 7_200)
        #expect(try storage.clock.now == wall + 7_200)
        #expect(throws: StorageError.clockOutOfRange("advancing by \(MockClock.maxOffsetSeconds) s would put the mock clock more than 100 years from the wall clock")) {
            try storage.clock.advance(by: MockClock.maxOffsetSeconds)
        }
        try storage.clock.set(to: wall - 60)
        #expect(try storage.clock.now == wall - 60)
        #expect(try storage.clock.wallNow == wall)
        try storage.clock.reset()
        #expect(try storage.clock.now == wall)
    }

    @Test(arguments: StorageDriver.allCases) func aNonceIsAcceptedOncePerAppKey(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: wall)
        #expect(try storage.nonces.insert(appKey: "app", nonce: "n-1", now: wall) == .accepted)
        #expect(try storage.nonces.insert(appKey: "app", nonce: "n-1", now: wall + 1) == .reused)
        #expect(try storage.nonces.insert(appKey: "other", nonce: "n-1", now: wall) == .accepted)
        #expect(try storage.nonces.count == 2)
    }

    @Test(arguments: StorageDriver.allCases) func aReleasedNonceIsTakenAsNewOnce(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: wall)
        #expect(try storage.nonces.insert(appKey: "app", nonce: "n-1", now: wall) == .accepted)
        try storage.nonces.release(appKey: "app", nonce: "n-1")
        #expect(try storage.nonces.insert(appKey: "app", nonce: "n-1", now: wall + 1) == .accepted)
        #expect(try storage.nonces.insert(appKey: "app", nonce: "n-1", now: wall + 2) == .reused)
    }

    @Test(arguments: StorageDriver.allCases) func tokensRotateExpireAndEnd(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: wall, accessTTL: 60, refreshTTL: 600)
        let tokens = storage.tokens
        let pair = try tokens.issue(uid: 7)
        #expect(pair.accessExpiresIn == 60 && pair.refreshExpiresIn == 600)
        #expect(try tokens.verdict(authorization: "Bearer \(pair.accessToken)", scheme: "Bearer") == .valid(uid: 7))
        #expect(try tokens.verdict(authorization: nil, scheme: "Bearer") == .missing)
        #expect(try tokens.verdict(authorization: "Bearer at_unknown", scheme: "Bearer") == .invalidated)

        // Rotation: the refresh token works once; the old access token answers 1005, the new one is valid.
        let rotated = try #require(try tokens.refresh(pair.refreshToken))
        #expect(rotated.uid == 7)
        #expect(try tokens.refresh(pair.refreshToken) == nil)
        #expect(try tokens.verdict(authorization: "Bearer \(pair.accessToken)", scheme: "Bearer") == .invalidated)
        #expect(try tokens.verdict(authorization: "Bearer \(rotated.pair.accessToken)", scheme: "Bearer") == .valid(uid: 7))

        // Expiry follows the mock clock, wherever the clock is kept.
        try storage.clock.advance(by: 61)
        #expect(try tokens.verdict(authorization: "Bearer \(rotated.pair.accessToken)", scheme: "Bearer") == .expired(uid: 7))
        try storage.clock.reset()
        // Both of uid 7's access tokens are unexpired: the rotated one and the invalidated original.
        #expect(try tokens.expireAccessTokens(uid: 7) == 2)
        #expect(try tokens.expireAccessTokens(uid: 7) == 0)
        let other = try tokens.issue(uid: 8)
        #expect(try tokens.invalidateAccessTokens(uid: 8) == 1)
        #expect(try tokens.verdict(authorization: "Bearer \(other.accessToken)", scheme: "Bearer") == .invalidated)

        // A forced logout revokes every pair of the user; its refresh is refused.
        let third = try tokens.issue(uid: 9)
        #expect(try tokens.forceLogout(uid: 9) == 1)
        #expect(try tokens.verdict(authorization: "Bearer \(third.accessToken)", scheme: "Bearer") == .revoked(uid: 9))
        #expect(try tokens.refresh(third.refreshToken) == nil)
        let fourth = try tokens.issue(uid: 10)
        try tokens.revoke(accessToken: fourth.accessToken)
        #expect(try tokens.verdict(authorization: "Bearer \(fourth.accessToken)", scheme: "Bearer") == .revoked(uid: 10))
        #expect(try tokens.refresh(fourth.refreshToken) == nil)

        let ban = UserBan(reason: "spam", until: "2027-01-01T00:00:00Z", appealURL: "https://example.com/appeal")
        try tokens.setBan(ban, uid: 7)
        #expect(try tokens.ban(uid: 7) == ban)
        try tokens.setBan(nil, uid: 7)
        #expect(try tokens.ban(uid: 7) == nil)
        try tokens.setBan(UserBan(reason: "r"), uid: 9)
        try tokens.reset()
        #expect(try tokens.ban(uid: 9) == nil)
        #expect(try tokens.verdict(authorization: "Bearer \(rotated.pair.accessToken)", scheme: "Bearer") == .invalidated)
    }

    @Test(arguments: StorageDriver.allCases) func aRuleFiresAfterItsSkipsForItsTimesThenGoes(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: wall)
        let codes = project.contract.service.codes
        let counted = try storage.rules.add(InjectionRule(parsing: "signal.*=3008@2@after1", codes: codes))
        let always = try storage.rules.add(InjectionRule(parsing: "auth.refresh=reset", codes: codes))
        #expect(counted.id != always.id)
        #expect(try storage.rules.all.map(\.id) == [counted.id, always.id])

        #expect(try storage.rules.fire(endpoint: "signal.inbox", user: nil, session: "s") == nil)
        let first = try #require(try storage.rules.fire(endpoint: "signal.inbox", user: 1, session: "s"))
        #expect(first.id == counted.id && first.seen == 2)
        guard case .business(code: 3008, message: nil, data: nil) = first.action else { Issue.record("fired \(first.action)"); return }
        #expect(try storage.rules.fire(endpoint: "signal.quota", user: 1, session: "s")?.id == counted.id)
        #expect(try storage.rules.fire(endpoint: "signal.quota", user: 1, session: "s") == nil)
        #expect(try storage.rules.all.map(\.id) == [always.id])

        let reset = try #require(try storage.rules.fire(endpoint: "auth.refresh", user: nil, session: "s"))
        #expect(reset.action == .fault(.connectionReset))
        #expect(try storage.rules.remove(id: always.id))
        #expect(try !storage.rules.remove(id: always.id))
        _ = try storage.rules.add(InjectionRule(parsing: "auth.*=1005", codes: codes))
        try storage.rules.removeAll()
        #expect(try storage.rules.all.isEmpty)
        #expect(try storage.rules.fire(endpoint: "auth.refresh", user: nil, session: "s") == nil)
    }

    @Test(arguments: StorageDriver.allCases) func aRuleForOneSessionLeavesTheOthers(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: wall)
        var rule = try InjectionRule(parsing: "signal.inbox=1005", codes: project.contract.service.codes)
        rule.session = "qa-1"
        rule.user = 4
        _ = try storage.rules.add(rule)
        #expect(try storage.rules.fire(endpoint: "signal.inbox", user: 4, session: "qa-2") == nil)
        #expect(try storage.rules.fire(endpoint: "signal.inbox", user: 5, session: "qa-1") == nil)
        let fired = try #require(try storage.rules.fire(endpoint: "signal.inbox", user: 4, session: "qa-1"))
        #expect(fired.session == "qa-1" && fired.user == 4 && fired.remaining == nil)
    }

    @Test(arguments: StorageDriver.allCases) func aScenarioAdvancesStepByStep(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: wall)
        let scenario = try #require(project.scenarios["token-expiry"])
        #expect(try storage.scenarios.step(for: "auth.refresh", session: "s", scenario: scenario) == nil)
        #expect(try storage.scenarios.step(for: "signal.inbox", session: "s", scenario: scenario)?.index == 0)
        #expect(try storage.scenarios.step(for: "signal.inbox", session: "s", scenario: scenario) == nil)
        #expect(try storage.scenarios.step(for: "auth.refresh", session: "s", scenario: scenario)?.index == 1)
        #expect(try storage.scenarios.step(for: "signal.inbox", session: "s", scenario: scenario)?.index == 2)
        #expect(try storage.scenarios.step(for: "signal.inbox", session: "s", scenario: scenario) == nil)
        #expect(try storage.scenarios.step(for: "signal.inbox", session: "t", scenario: scenario)?.index == 0)
        #expect(try storage.scenarios.count == 2)

        let banned = try #require(project.scenarios["banned"])
        try storage.scenarios.start("banned", session: "u")
        #expect(try storage.scenarios.startedScenario(session: "u") == "banned")
        #expect(try storage.scenarios.step(for: "signal.inbox", session: "u", scenario: banned)?.index == 0)
        #expect(try storage.scenarios.step(for: "signal.quota", session: "u", scenario: banned)?.index == 0)
        try storage.scenarios.reset()
        #expect(try storage.scenarios.count == 0)
        #expect(try storage.scenarios.startedScenario(session: "u") == nil)
    }

    private func entry(_ path: String, session: String) -> JournalEntry {
        var entry = JournalEntry(time: wall, wallTime: wall, method: "GET", path: path, endpoint: "signal.inbox", query: [("limit", "2")],
                                 headers: HTTPHeaders([("authorization", "Bearer at_1"), ("x-nonce", "n")]), session: session, user: 3, status: 200,
                                 code: 0, answer: "default", verdict: .ok)
        entry.problems = [JournalEntry.Problem(side: .request, pointer: "/query/limit", message: "too small")]
        entry.response = JournalEntry.Response(.bytes(Array(#"{"code":0,"data":{}}"#.utf8)), isCompactJSON: true)
        return entry
    }

    @Test(arguments: StorageDriver.allCases) func theJournalNumbersKeepsAndClears(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: wall)
        for index in 1...3 {
            try storage.journal.add(entry("/api/v1/signals/inbox?\(index)", session: index == 2 ? "b" : "a"))
        }
        let all = try storage.journal.entries()
        #expect(all.map(\.sequence) == [1, 2, 3])
        // Kept as written: the same JSON comes back, credentials masked.
        #expect(all[0].bytes == { var numbered = entry("/api/v1/signals/inbox?1", session: "a"); numbered.sequence = 1; return numbered.bytes }())
        #expect(try storage.journal.entries(session: "a").map(\.sequence) == [1, 3])
        #expect(try storage.journal.entries(limit: 1).map(\.sequence) == [3])
        #expect(try [0, 1, 2, 3, 4].map { try storage.journal.entry(sequence: $0)?.path } == [nil, all[0].path, all[1].path, all[2].path, nil])
        try storage.journal.clear()
        #expect(try storage.journal.entry(sequence: 3) == nil)
        #expect(try storage.journal.entries().isEmpty)
        // Numbers go on across a clear: a client that saw 3 knows 4 is newer.
        try storage.journal.add(entry("/x", session: "a"))
        #expect(try storage.journal.entries().map(\.sequence) == [4])
    }

    @Test func theInMemoryJournalFindsAnEntryByItsNumberAcrossTheRing() {
        let journal = Journal(capacity: 3)
        for index in 1...7 { journal.add(entry("/\(index)", session: "a"), judgedBy: nil) }
        #expect((1...8).map { journal.entry(sequence: $0)?.path } == [nil, nil, nil, nil, "/5", "/6", "/7", nil])
        #expect((1...8).map { journal.entry(sequence: $0)?.sequence } == [nil, nil, nil, nil, 5, 6, 7, nil])
    }

    @Test(arguments: StorageDriver.allCases) func uploadsStayWithinTheirBudget(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: wall, uploadBudget: 10)
        let first = try #require(try storage.uploads.store([1, 2, 3, 4, 5, 6], contentType: "image/png", at: wall, id: nil))
        #expect(first.id.count == 32 && first.size == 6)
        #expect(try storage.uploads.file(first.id)?.bytes == [1, 2, 3, 4, 5, 6])
        let second = try #require(try storage.uploads.store([7, 8, 9, 10, 11, 12], contentType: "image/jpeg", at: wall + 1, id: "fixed"))
        #expect(try storage.uploads.file(first.id) == nil)
        #expect(try storage.uploads.file("fixed")?.file == second)
        #expect(try storage.uploads.usage == UploadUsage(files: 1, bytes: 6, budgetBytes: 10, evicted: 1))
        #expect(try storage.uploads.store(Array(repeating: 0, count: 11), contentType: "image/png", at: wall, id: nil) == nil)
        try storage.uploads.reset()
        #expect(try storage.uploads.usage == UploadUsage(files: 0, bytes: 0, budgetBytes: 10, evicted: 0))
    }

    @Test(arguments: StorageDriver.allCases) func recordsAreSeededPerSessionAndChangeAtomically(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: wall)
        let signals = try #require(project.collections["signals"])
        let seeds: [JSONValue] = [.object([.init("id", .string("sg_a")), .init("content", .string("hi"))])]
        var seeded = 0
        let seed = { () throws(StorageError) -> [JSONValue] in
            seeded += 1
            return seeds
        }
        let (records, version) = try storage.collections.versioned(signals, session: "s", seeds: seed)
        #expect(records == seeds && seeded == 1)
        #expect(try storage.collections.versioned(signals, session: "s", seeds: seed).version == version)
        #expect(seeded == 1)

        let count = try storage.collections.modify(signals, session: "s", seeds: seed) { records -> Int in
            records.append(.object([.init("id", .string("sg_b"))]))
            return records.count
        }
        #expect(count == 2)
        let changed = try storage.collections.versioned(signals, session: "s", seeds: seed)
        #expect(changed.version != version && changed.records.count == 2)
        try storage.collections.put(.object([.init("id", .string("sg_a")), .init("content", .string("edited"))]), key: "sg_a", into: signals,
                                    session: "s", seeds: seed)
        #expect(try storage.collections.records(of: signals, session: "s", seeds: seed).first?["content"] == .string("edited"))
        #expect(try storage.collections.records(of: signals, session: "other", seeds: seed) == seeds)
        #expect(try storage.collections.counts.sessions == 2)

        let exported = try storage.collections.export()
        #expect(exported["signals"]?["s"]?.count == 2 && exported["signals"]?["other"] == seeds)
        try storage.collections.reset(session: "s")
        #expect(try storage.collections.records(of: signals, session: "s", seeds: seed) == seeds)
        try storage.collections.restore(exported)
        #expect(try storage.collections.records(of: signals, session: "s", seeds: seed).count == 2)
        #expect(try storage.collections.byteCounts.bytes > 0)
        #expect(try storage.collections.adopt([:], replacing: ["signals": signals]) == ["signals"])
        #expect(try storage.collections.export().isEmpty || storage.collections.export()["signals"] == nil)
        try storage.collections.reset(session: nil)
        #expect(try storage.collections.byteCounts.bytes == 0)
    }

    @Test(arguments: StorageDriver.allCases) func sequenceAndCursorKeyAreShared(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: wall)
        #expect(try storage.nextSequence() == 1)
        #expect(try storage.nextSequence() == 2)
        let secret = try storage.cursorSecret
        #expect(secret.count == 32)
        #expect(try storage.cursorSecret == secret)
    }
}
