import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordTesting
import AccordValidation
import Foundation
import Testing

/// Collections (`mocks/collections/*.yaml`): what the loader accepts and reports, and
/// the per-session records the engine keeps.
@Suite struct CollectionTests {
    /// Loads one collection file written inline, as `DIR/collections/NAME.yaml`.
    private func load(_ yaml: String, name: String = "signals", contract: Contract = Repository.contract) throws
        -> ([String: CollectionDefinition], [String]) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-collections-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data(yaml.utf8).write(to: directory.appendingPathComponent("\(name).yaml"))
        let (collections, diagnostics) = CollectionLoader(contract: contract).load(directory: directory.path)
        return (collections, diagnostics.map { $0.description.replacingOccurrences(of: directory.path + "/", with: "") })
    }

    private let signal = "{id: sg_1, sender: {uid: 1, nickname: a, avatar: 'https://a.example/1.png', gender: 1}, content: hi, media: [], tags: [], "
        + "is_flash: false, status: active, created_at: '{{now - 1h}}'}"

    @Test func aCollectionLoadsWithItsSeeds() throws {
        let (collections, diagnostics) = try load("type: Signal\nkey: id\nlimit: 10\nseed:\n  - \(signal)\n")
        #expect(diagnostics == [])
        let signals = try #require(collections["signals"])
        #expect(signals.typeName == "Signal")
        #expect(signals.key == "id")
        #expect(signals.limit == 10)
        #expect(signals.seedCount == 1)
    }

    @Test func everyProblemIsReportedWhereItIs() throws {
        let cases: [(String, String)] = [
            ("type: Signl\nkey: id\n", "signals.yaml:1:7: error: collection 'signals': unknown type 'Signl'; did you mean 'Signal'?"),
            ("type: SignalStatus\nkey: id\n", "signals.yaml:1:7: error: collection 'signals': type 'SignalStatus' is not an object type; records need members"),
            ("type: Signal\n", "signals.yaml:1:1: error: collection 'signals' needs a 'key': the member that identifies a record"),
            ("type: Signal\nkey: idd\n", "signals.yaml:2:6: error: collection 'signals': 'Signal' has no member 'idd'; did you mean 'id'?"),
            ("type: Signal\nkey: expires_at\n",
             "signals.yaml:2:6: error: collection 'signals': the key 'expires_at' must be a required string, int or enum member of 'Signal'"),
            ("type: Signal\nkey: id\nlimit: 0\n", "signals.yaml:3:8: error: collection 'signals': 'limit' takes a number of records from 1 to 100000, found 0"),
            ("type: Signal\nkey: id\nsort: id\n", "signals.yaml:3:1: error: unknown key 'sort' in a collection"),
            ("type: Signal\nkey: id\nseed:\n  - {id: 5}\n", "signals.yaml:4:10: error: collection 'signals' seed 0 /id: expected string, found an integer 5"),
            ("type: Signal\nkey: id\nseed:\n  - \(signal)\n  - \(signal)\n",
             "signals.yaml:5:10: error: collection 'signals' seed 1: its id \"sg_1\" is the id of an earlier seed (at signals.yaml:4:10)"),
            ("type: Signal\nkey: id\nlimit: 1\nseed:\n  - \(signal)\n  - \(signal.replacingOccurrences(of: "sg_1", with: "sg_2"))\n",
             "signals.yaml:5:3: error: collection 'signals': 2 seed records, more than its 'limit' of 1"),
        ]
        for (yaml, expected) in cases {
            let (_, diagnostics) = try load(yaml)
            #expect(diagnostics.contains(expected), "\(diagnostics)")
        }
    }

    @Test func eachSessionStartsFromTheSeedsAndKeepsItsOwn() throws {
        let (collections, _) = try load("type: Signal\nkey: id\nseed:\n  - \(signal)\n")
        let signals = try #require(collections["signals"])
        let state = MockState(clock: MockClock(wall: 1_796_025_600), nonceTTLSeconds: 600)
        let first = try state.collections.records(of: signals, session: "a", state: state)
        #expect(first.map { $0["created_at"] } == [.string("2026-11-30T07:00:00Z")])
        // A later session is seeded at its own time; the first keeps what it had.
        try state.clock.advance(by: 3_600)
        #expect(try state.collections.records(of: signals, session: "b", state: state).first?["created_at"] == .string("2026-11-30T08:00:00Z"))
        #expect(try state.collections.records(of: signals, session: "a", state: state) == first)
        try state.collections.reset(session: "a")
        #expect(try state.collections.records(of: signals, session: "a", state: state).first?["created_at"] == .string("2026-11-30T08:00:00Z"))
    }

    /// Where an array's records are held: the same place for two arrays that share them.
    private func storage(_ records: [JSONValue]) -> UnsafeRawPointer? {
        records.withUnsafeBufferPointer { $0.baseAddress.map(UnsafeRawPointer.init) }
    }

    @Test func sessionsSeededAtTheSameTimeShareTheSeedsUntilOneWrites() throws {
        let (collections, _) = try load("type: Signal\nkey: id\nseed:\n  - \(signal)\n  - \(signal.replacingOccurrences(of: "sg_1", with: "sg_2"))\n")
        let signals = try #require(collections["signals"])
        let state = MockState(clock: MockClock(wall: 1_796_025_600), nonceTTLSeconds: 600)
        let a = try state.collections.records(of: signals, session: "a", state: state)
        let b = try state.collections.records(of: signals, session: "b", state: state)
        #expect(a == b)
        #expect(storage(a) == storage(b), "one array of records for both sessions")
        // A write copies the session's own array; the other keeps the seeds.
        _ = try state.collections.modify(signals, session: "a", state: state) { $0.removeFirst() }
        #expect(try state.collections.records(of: signals, session: "a", state: state).map { $0["id"] } == [.string("sg_2")])
        #expect(try state.collections.records(of: signals, session: "b", state: state) == b)
        // A second later, a new session is seeded at its own time.
        try state.clock.advance(by: 1)
        let c = try state.collections.records(of: signals, session: "c", state: state)
        #expect(c.first?["created_at"] == .string("2026-11-30T07:00:01Z"))
        #expect(storage(c) != storage(b))
    }

    @Test func seedsWithIdentifiersOfTheirOwnAreRenderedForEverySession() throws {
        let (collections, diagnostics) = try load("type: Signal\nkey: id\nseed:\n  - \(signal.replacingOccurrences(of: "id: sg_1", with: "id: 'sg_{{seq}}'"))\n")
        #expect(diagnostics == [])
        let signals = try #require(collections["signals"])
        let state = MockState(clock: MockClock(wall: 1_796_025_600), nonceTTLSeconds: 600)
        let a = try state.collections.records(of: signals, session: "a", state: state)
        let b = try state.collections.records(of: signals, session: "b", state: state)
        #expect(a.first?["id"] != nil && a.first?["id"] != b.first?["id"], "\(a) \(b)")
    }

    @Test func theLeastRecentlyUsedSessionIsEvictedFirst() throws {
        let (collections, _) = try load("type: Signal\nkey: id\nseed:\n  - \(signal)\n")
        let signals = try #require(collections["signals"])
        let store = CollectionStore(sessionLimit: 2)
        let state = MockState(nonceTTLSeconds: 600, collections: store)
        _ = try store.records(of: signals, session: "a", state: state)
        _ = try store.records(of: signals, session: "b", state: state)
        _ = try store.records(of: signals, session: "a", state: state) // a is used again: b is now the oldest
        _ = try store.records(of: signals, session: "c", state: state)
        #expect(store.counts.sessions == 2)
        #expect(store.counts.evicted == 1)
    }

    @Test func sessionsStayWithinTheirByteBudgetsAndAllOfThemWithinTheTotal() throws {
        let (collections, _) = try load("type: Signal\nkey: id\nseed:\n  - \(signal)\n")
        let signals = try #require(collections["signals"])
        let store = CollectionStore(sessionBudgetBytes: 100_000, totalBudgetBytes: 250_000)
        let state = MockState(nonceTTLSeconds: 600, collections: store)
        let seeded = try #require(store.records(of: signals, session: "a", state: state).first)
        func big(_ id: Int) -> JSONValue {
            guard case .object(var members) = seeded else { return seeded }
            members = members.map { $0.key == "id" ? .init("id", .string("sg_\(id)")) : $0.key == "content" ? .init("content", .string(String(repeating: "x", count: 30_000))) : $0 }
            return .object(members)
        }
        for id in 0..<10 { try store.put(big(id), key: "sg_\(id)", into: signals, session: "a", state: state) }
        // 30 KB records: three fit a 100 KB session; the oldest went, the newest stayed.
        let kept = try store.records(of: signals, session: "a", state: state)
        #expect(kept.count == 3)
        #expect(kept.last?["id"] == .string("sg_9"))
        #expect(store.byteCounts.bytes <= 100_000)
        #expect(store.byteCounts.trimmed == 7, "ten records (sg_1 replaced the seed), three kept")
        // Three sessions of about 90 KB pass the 250 KB total: the least recently used goes.
        for session in ["b", "c"] {
            for id in 0..<3 { try store.put(big(id), key: "sg_\(id)", into: signals, session: session, state: state) }
        }
        #expect(store.byteCounts.bytes <= 250_000)
        #expect(store.counts.sessions == 2)
        #expect(store.counts.evicted == 1)
        store.reset()
        #expect(store.byteCounts.bytes == 0)
    }

    @Test func aStringWithNoDeclaredMaximumIsCappedAtOneMebibyte() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let contact = String(repeating: "c", count: (1 << 20) + 1)
        let answer = fixture.handle(fixture.signed("POST", "/api/v1/feedback", body: #"{"category":"feature","content":"hi","contact":"\#(contact)"}"#))
        #expect(answer.code == .int(1000))
        #expect(answer.text.contains(#""pointer":"/body/contact""#), "\(answer.text.prefix(300))")
        #expect(answer.text.contains("at most 1048576 bytes (the server's cap where no max_length is declared)"))
    }

    @Test func aReloadKeepsTheRecordsOfCollectionsWhoseTypeDidNotChange() throws {
        let yaml = "type: Signal\nkey: id\nseed:\n  - \(signal)\n"
        let (before, _) = try load(yaml)
        let store = CollectionStore()
        let state = MockState(nonceTTLSeconds: 600, collections: store)
        _ = try store.records(of: try #require(before["signals"]), session: "a", state: state)
        // The same types read from other files (every code renumbered): the records stay.
        let renumbered = try Repository.renumberedContracts(by: 40_000)
        defer { try? FileManager.default.removeItem(atPath: renumbered.directory) }
        let (same, _) = try load(yaml, contract: renumbered.contract)
        #expect(store.adopt(same, replacing: before) == [])
        #expect(store.export()["signals"]?["a"]?.count == 1)
        // Signal's content allows 280 characters instead of 500: the records go.
        let changed = try Repository.renumberedContracts(by: 0)
        defer { try? FileManager.default.removeItem(atPath: changed.directory) }
        let signalFile = changed.directory + "/signal.yaml"
        let text = try String(contentsOfFile: signalFile, encoding: .utf8)
        try text.replacingOccurrences(of: "content: {type: string, min_length: 1, max_length: 500}\n      media: [Media]",
                                      with: "content: {type: string, min_length: 1, max_length: 280}\n      media: [Media]")
            .write(toFile: signalFile, atomically: true, encoding: .utf8)
        let contract = try #require(ContractLint.run(directory: changed.directory).contract)
        let (after, _) = try load(yaml, contract: contract)
        #expect(store.adopt(after, replacing: same) == ["signals"])
        #expect(store.export()["signals"] == nil)
        #expect(store.adopt([:], replacing: after) == ["signals"]) // a collection removed
    }

    @Test func theControlAPIShowsAndResetsASessionsRecords() throws {
        let project = try #require(MockProject.load(contracts: Repository.contracts, mocks: Repository.mocks).project)
        let state = MockState(nonceTTLSeconds: 600)
        let engine = MockEngine(contract: project.contract, fixtures: project.fixtures, scenarios: project.scenarios, collections: project.collections,
                                state: state)
        let json = [("Content-Type", "application/json")]
        let shown = engine.handle(MockRequest(method: "GET", target: "/__accord/state/signals?session=ui-1"))
        #expect(shown.status == 200)
        #expect(shown.json?["session"] == .string("ui-1"))
        #expect(shown.json?["type"] == .string("SignalDetail"))
        guard case .array(let records)? = shown.json?["records"] else { Issue.record("no records"); return }
        #expect(records.map { $0["id"] } == [.string("sg_7f3a"), .string("sg_7f3b"), .string("sg_flash_1"), .string("sg_8c01")])
        #expect(try state.collections.counts.sessions == 1)
        let unknown = engine.handle(MockRequest(method: "GET", target: "/__accord/state/likes"))
        #expect(unknown.status == 404)
        #expect(unknown.json?["message"] == .string("no collection 'likes'; collections: admirers, blocks, entitlements, learning-sessions, matches, orders, push-devices, review-tasks, signals"))
        #expect(engine.handle(MockRequest(method: "POST", target: "/__accord/state/reset?session=ui-1", headers: json)).status == 200)
        #expect(try state.collections.counts.sessions == 0)
        _ = engine.handle(MockRequest(method: "GET", target: "/__accord/state/signals"))
        #expect(engine.handle(MockRequest(method: "POST", target: "/__accord/reset", headers: json)).status == 200)
        #expect(try state.collections.counts.sessions == 0)
    }
}
