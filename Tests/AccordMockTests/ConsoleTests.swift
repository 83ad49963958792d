import AccordContract
import AccordHTTP
import AccordJSON
@testable import AccordMock
import AccordMockState
import AccordTesting
import Foundation
import Testing

/// The web console's side of the engine, in-process: the live feed, the journal's
/// answers and violations, the files and their headers, "try it", scenarios by session.
@Suite struct ConsoleTests {
    /// Reads what a stream holds until `done` holds for the text so far, or 3 s pass.
    private func read(_ response: MockResponse, until done: (String) -> Bool) throws -> String {
        guard case .stream(let pipe) = response.body else {
            Issue.record("not a stream: \(response.status) \(response.text)")
            return ""
        }
        var text = ""
        var buffer = [UInt8](repeating: 0, count: 65_536)
        let deadline = Date().addingTimeInterval(3)
        while !done(text) && Date() < deadline {
            let result = buffer.withUnsafeMutableBytes { pipe.read(into: $0) }
            switch result {
            case .bytes(let count): text += String(decoding: buffer.prefix(count), as: UTF8.self)
            case .empty: Thread.sleep(forTimeInterval: 0.01)
            case .end, .failed: return text
            }
        }
        return text
    }

    /// The `data:` of each `event: request` in a stream's text, as JSON.
    private func entries(_ text: String) throws -> [JSONValue] {
        try text.components(separatedBy: "\n\n").compactMap { block in
            guard block.contains("event: request"), let data = block.split(separator: "\n").first(where: { $0.hasPrefix("data: ") }) else { return nil }
            return try JSONReader.read(Array(data.dropFirst(6).utf8))
        }
    }

    @Test func theEventStreamCarriesEachNewEntryItsFilterAdmitsWithinAFlush() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let stream = fixture.handle(MockRequest(method: "GET", target: "/__accord/events?endpoint=signal.*&status=2xx&replay=0"))
        #expect(stream.status == 200)
        #expect(stream.header("Content-Type") == "text/event-stream; charset=utf-8")
        let started = Date()
        _ = fixture.handle(fixture.signed("GET", "/api/v1/users/me"))
        _ = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota"))
        let text = try read(stream) { $0.contains("signal.quota") }
        #expect(Date().timeIntervalSince(started) < 1)
        #expect(text.hasPrefix("retry: 1000\n\n"))
        let got = try entries(text)
        #expect(got.map { $0["endpoint"] } == [.string("signal.quota")])
        #expect(got.first?["seq"] == .int(2))
        #expect(text.contains("id: 2\nevent: request\ndata: {\"seq\":2,"))
        #expect(fixture.state.events.subscriberCount == 1)
    }

    @Test func aStreamReplaysTheJournalOrWhatFollowsLastEventID() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        for _ in 0..<5 { _ = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota")) }
        let lastTwo = try read(fixture.handle(MockRequest(method: "GET", target: "/__accord/events?replay=2"))) { $0.contains("id: 5") }
        #expect(try entries(lastTwo).map { $0["seq"] } == [.int(4), .int(5)])
        let resumed = fixture.handle(MockRequest(method: "GET", target: "/__accord/events", headers: [("Last-Event-ID", "1")]))
        #expect(try entries(try read(resumed) { $0.contains("id: 5") }).map { $0["seq"] } == [.int(2), .int(3), .int(4), .int(5)])
        let bad = fixture.handle(MockRequest(method: "GET", target: "/__accord/events?replay=5000"))
        #expect(bad.status == 400)
        #expect(bad.json?["message"] == .string("'replay' takes a number from 0 to 1000, found '5000'"))
        let badFilter = fixture.handle(MockRequest(method: "GET", target: "/__accord/events?status=6xx"))
        #expect(badFilter.json?["message"] == .string("'status' takes a status from 100 to 599 or a class such as 4xx, found '6xx'"))
    }

    @Test func atMostSixteenStreamsAndAClosedOneFreesItsPlace() throws {
        let fixture = try EngineFixture(fixturesIn: Repository.mocks)
        var pipes: [BodyPipe] = []
        for _ in 0..<JournalFeed.subscriberLimit {
            guard case .stream(let pipe) = fixture.handle(MockRequest(method: "GET", target: "/__accord/events")).body else {
                Issue.record("no stream")
                return
            }
            pipes.append(pipe)
        }
        let refused = fixture.handle(MockRequest(method: "GET", target: "/__accord/events"))
        #expect(refused.status == 429)
        #expect(refused.json?["message"] == .string("16 event streams are open already, the most the server keeps; close one"))
        pipes[0].close()  // the client hung up
        let deadline = Date().addingTimeInterval(2)
        while fixture.state.events.subscriberCount == JournalFeed.subscriberLimit && Date() < deadline { Thread.sleep(forTimeInterval: 0.01) }
        #expect(fixture.handle(MockRequest(method: "GET", target: "/__accord/events")).status == 200)
    }

    @Test func aSubscriberThatDoesNotReadLosesEntriesBeyondItsBacklogAndIsToldHowMany() throws {
        let feed = JournalFeed(backlogBytes: 2_048, streamBytes: 1_024)
        let pipe = try feed.subscribe(filter: JournalFilter(), replay: [])
        let entry = JournalEntry(time: 0, wallTime: 0, method: "GET", path: "/api/v1/signals/quota", endpoint: "signal.quota", session: "s",
                                 status: 200, verdict: .ok)
        for sequence in 1...100 {
            var numbered = entry
            numbered.sequence = sequence
            feed.publish(numbered)
        }
        Thread.sleep(forTimeInterval: 0.3)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var text = ""
        for _ in 0..<20 {
            if case .bytes(let count) = buffer.withUnsafeMutableBytes({ pipe.read(into: $0) }) { text += String(decoding: buffer.prefix(count), as: UTF8.self) }
            Thread.sleep(forTimeInterval: 0.12)
        }
        let kept = try entries(text).count
        let dropped = text.components(separatedBy: "event: dropped\ndata: {\"dropped\":").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(kept > 0 && kept < 100)
        #expect(kept + dropped.reduce(0, +) == 100)
    }

    @Test func aReplayIsHeldToTheBacklogToo() throws {
        let feed = JournalFeed(backlogBytes: 2_048, streamBytes: 1 << 20)
        let entry = JournalEntry(time: 0, wallTime: 0, method: "GET", path: "/api/v1/signals/quota", endpoint: "signal.quota", session: "s",
                                 status: 200, verdict: .ok)
        let replay = (1...1_000).map { sequence in
            var numbered = entry
            numbered.sequence = sequence
            return numbered
        }
        let pipe = try feed.subscribe(filter: JournalFilter(), replay: replay)
        Thread.sleep(forTimeInterval: 0.3)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        guard case .bytes(let count) = buffer.withUnsafeMutableBytes({ pipe.read(into: $0) }) else { Issue.record("nothing to read"); return }
        let text = String(decoding: buffer.prefix(count), as: UTF8.self)
        let kept = try entries(text)
        let dropped = text.components(separatedBy: "event: dropped\ndata: {\"dropped\":").dropFirst().compactMap { Int($0.prefix { $0.isNumber }) }
        #expect(count <= 2_048 + 64, "the replay took \(count) bytes")
        #expect(kept.count > 0 && kept.last?["seq"] == .int(1_000), "the newest entries are the ones kept")
        #expect(kept.count + dropped.reduce(0, +) == 1_000)
    }

    @Test func anEventCarriesTheEnginesAnswerAsSentAndABrokenOneAsText() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let stream = fixture.handle(MockRequest(method: "GET", target: "/__accord/events?replay=0"))
        let quota = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota"))
        let broken = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Inject", "malformed")]))
        #expect((try? JSONReader.read(broken.bodyBytes)) == nil)
        let text = try read(stream) { $0.contains("id: 2\n") && $0.hasSuffix("\n\n") }
        let got = try entries(text)  // every event's data reads as JSON
        #expect(got.count == 2)
        #expect(text.contains(",\"response_bytes\":\(quota.bodyBytes.count),\"response_body\":" + quota.text + "}\n\n"))
        #expect(got.last?["response_body"] == .string(broken.text))
        #expect(got.first?["response_body"] == quota.json)
    }

    @Test func theJournalKeepsAnAnswerUpTo4KiBAndARefusalsViolations() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        _ = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota"))
        let quota = try #require(fixture.state.journal.entries().last)
        #expect(quota.json["response_body"]?["code"] == .int(0))
        #expect(quota.json["response_bytes"] == .int(quota.response?.bytes?.count ?? -1))
        let long = String(repeating: "长", count: 600)
        _ = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content": "\#(long)", "is_flash": false}"#))
        let refused = try #require(fixture.state.journal.entries().last)
        #expect(refused.verdict == .invalid)
        #expect(refused.problems.map(\.pointer) == ["/body/content"])
        #expect(refused.problems.first?.message.hasPrefix("expected at most 500 characters") == true)
        let large = JournalEntry.Response(.bytes([UInt8](repeating: 0x20, count: 5_000)))
        #expect(large.bytes == nil)
        #expect(large.size == 5_000)
    }

    @Test func theConsoleFilesCarryARestrictivePolicyAndAnswerOnlyThisServersNames() throws {
        let fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let page = fixture.handle(MockRequest(method: "GET", target: "/__accord/ui", headers: [("Host", "localhost:8080")]))
        #expect(page.status == 200)
        #expect(page.header("Content-Type") == "text/html; charset=utf-8")
        #expect(page.header("Content-Security-Policy")?.hasPrefix("default-src 'none'; script-src 'self';") == true)
        #expect(page.header("Content-Security-Policy")?.contains("frame-ancestors 'none'") == true)
        #expect(page.text.contains(#"<script src="/__accord/ui/console.js" defer></script>"#))
        #expect(!page.text.contains("<script>"))  // nothing inline: the policy would refuse it
        #expect(fixture.handle(MockRequest(method: "GET", target: "/__accord/ui/console.js")).header("Content-Type") == "text/javascript; charset=utf-8")
        #expect(fixture.handle(MockRequest(method: "GET", target: "/__accord/ui/../rules")).status == 404)
        let rebound = fixture.handle(MockRequest(method: "GET", target: "/__accord/ui", headers: [("Host", "attacker.example:8080")]))
        #expect(rebound.status == 403)
        #expect(rebound.json?["error"] == .string("foreign_host"))
        let events = fixture.handle(MockRequest(method: "GET", target: "/__accord/events", headers: [("Host", "attacker.example:8080")]))
        #expect(events.status == 403)
        #expect(fixture.handle(MockRequest(method: "GET", target: "/__accord/rules")).header("Content-Security-Policy") == "default-src 'none'; frame-ancestors 'none'")
    }

    @Test func withAnAdminTokenThePageLoadsButEveryCallNeedsTheToken() throws {
        var options = MockOptions()
        options.adminToken = "s3cret"
        options.serverNames = ["192.0.2.7"]
        let fixture = try EngineFixture(fixturesIn: Repository.mocks, options: options)
        var remote = MockRequest(method: "GET", target: "/__accord/ui", headers: [("Host", "192.0.2.7:8443")])
        remote.isFromLoopback = false
        #expect(fixture.handle(remote).status == 200)
        var events = MockRequest(method: "GET", target: "/__accord/events", headers: [("Host", "192.0.2.7:8443")])
        events.isFromLoopback = false
        #expect(fixture.handle(events).status == 401)
        var withToken = MockRequest(method: "GET", target: "/__accord/contract", headers: [("Host", "192.0.2.7:8443"), ("X-Accord-Admin-Token", "s3cret")])
        withToken.isFromLoopback = false
        #expect(fixture.handle(withToken).status == 200)
        var otherName = withToken
        otherName.headers = HTTPHeaders([("Host", "rebind.example:8443"), ("X-Accord-Admin-Token", "s3cret")])
        #expect(fixture.handle(otherName).json?["error"] == .string("foreign_host"))
    }

    @Test func aCrossSitePageCannotBanTryOrReset() throws {
        let fixture = try EngineFixture(fixturesIn: Repository.mocks)
        // What an HTML form or a no-cors fetch can send: a simple content type, its own Origin.
        for (target, body) in [("/__accord/users/10086/ban", #"{"reason":"x"}"#), ("/__accord/try", #"{"endpoint":"signal.quota"}"#), ("/__accord/reset", "")] {
            let form = fixture.handle(MockRequest(method: "POST", target: target, headers: [("Content-Type", "text/plain")], body: Array(body.utf8)))
            #expect(form.status == 415, "\(target)")
            let foreign = fixture.handle(MockRequest(method: "POST", target: target, headers: [("Content-Type", "application/json"), ("Origin", "http://attacker.example"),
                                                                                               ("Host", "127.0.0.1:8080")], body: Array(body.utf8)))
            #expect(foreign.json?["error"] == .string("foreign_origin"), "\(target)")
        }
        #expect(try fixture.state.tokens.ban(uid: 10086) == nil)
    }

    @Test func tryItSignsOnTheServerAndIsJournaledUnderItsSession() throws {
        let fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let body = #"{"endpoint": "auth.sms-send", "body": {"phone": "13800138000", "scene": "login"}, "session": "qa-1"}"#
        let answer = fixture.handle(MockRequest(method: "POST", target: "/__accord/try", headers: [("Content-Type", "application/json")], body: Array(body.utf8)))
        #expect(answer.status == 200)
        let json = try #require(answer.json)
        #expect(json["request"]?["target"] == .string("/api/v1/auth/sms/send"))
        #expect(json["request"]?["headers"]?["X-App-Key"] == .string("dev_app_key"))
        #expect(json["response"]?["status"] == .int(200))
        #expect(json["response"]?["body"]?["code"] == .int(0))
        #expect(!answer.text.contains("dev_app_secret"))
        let entry = try #require(fixture.state.journal.entries().last)
        #expect(entry.session == "qa-1")
        #expect(entry.verdict == .ok)
        let unknown = fixture.handle(MockRequest(method: "POST", target: "/__accord/try", headers: [("Content-Type", "application/json")],
                                                 body: Array(#"{"endpoint": "nope"}"#.utf8)))
        #expect(unknown.status == 400)
    }

    @Test func aScenarioStartedForASessionRunsWithoutAHeader() throws {
        let project = try #require(MockProject.load(contracts: Repository.contracts, mocks: Repository.mocks).project)
        var fixture = try EngineFixture(fixturesIn: Repository.mocks, scenarios: project.scenarios)
        let start = fixture.handle(MockRequest(method: "POST", target: "/__accord/sessions/qa%202/scenario", headers: [("Content-Type", "application/json")],
                                               body: Array(#"{"name": "banned"}"#.utf8)))
        #expect(start.json == .object([.init("session", .string("qa 2")), .init("scenario", .string("banned"))]))
        #expect(fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Session", "qa 2")])).code == .int(1008))
        #expect(fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Session", "other")])).code == .int(0))
        let unknown = fixture.handle(MockRequest(method: "POST", target: "/__accord/sessions/s/scenario", headers: [("Content-Type", "application/json")],
                                                 body: Array(#"{"name": "nope"}"#.utf8)))
        #expect(unknown.json?["message"] == .string("give {\"name\": SCENARIO}; scenarios: banned, exercise-flows, exercise-flows-random, forced-logout, quota, refresh-fails, silent-refresh, token-expiry"))
    }

    @Test func theContractViewListsEveryEndpointByDomainAndTheCodesWithTheirFlows() throws {
        let fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let contract = try #require(fixture.handle(MockRequest(method: "GET", target: "/__accord/contract")).json)
        guard case .array(let domains)? = contract["domains"] else {
            Issue.record("no domains")
            return
        }
        let endpoints = domains.flatMap { domain -> [JSONValue] in if case .array(let list)? = domain["endpoints"] { list } else { [] } }
        #expect(endpoints.count == Repository.contract.endpoints.count)
        let publish = try #require(endpoints.first { $0["id"] == .string("signal.publish") })
        #expect(publish["body"] == .string("{content: string, media?: [Media], tags?: [string], is_flash: bool}"))
        #expect(publish["response"] == .string("Signal"))
        guard case .array(let codes)? = contract["codes"] else {
            Issue.record("no codes")
            return
        }
        #expect(codes.contains(.object([.init("code", .int(1008)), .init("name", .string("banned")), .init("message", .string("账号已被封禁")),
                                        .init("flow", .string("ban")), .init("http_status", .int(200))])))
    }
}
