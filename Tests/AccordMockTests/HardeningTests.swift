import AccordContract
import AccordJSON
@testable import AccordMocksFormat
import AccordMockState
import AccordTesting
import Foundation
import Testing
@testable import AccordHTTP
@testable import AccordMock

/// Single requests that used to crash, mislead or exhaust the engine (issue 8), each
/// answered now with a precise refusal.
@Suite struct HardeningTests {
    // MARK: Numbers from requests never trap

    @Test func durationsAreBoundedAndNeverTrap() {
        #expect(DurationText.seconds("2h") == 7_200)
        #expect(DurationText.seconds("-1h") == -3_600)
        #expect(DurationText.seconds("366d") == 31_622_400)
        #expect(DurationText.seconds("367d") == nil)
        #expect(DurationText.seconds("99999999999999999d") == nil)
        #expect(DurationText.seconds("9223372036854775807s") == nil)
        #expect(DurationText.milliseconds("1.5s") == 1_500)
        #expect(DurationText.milliseconds("1e308s") == nil)
        #expect(DurationText.milliseconds("nans") == nil)
        #expect(DurationText.milliseconds("infs") == nil)
        #expect(DurationText.milliseconds("9223372036854775s") == nil)
        #expect(DurationText.milliseconds("-5ms") == nil)
        // Plain decimal digits only: no sign, exponent, hex or stray dot.
        for text in ["-5s", "+5s", "0x10s", "1e1s", "1E1s", "1.5ms", ".5s", "5.s", "1..5s", "0x10", "1e3", "", "s", "ms", " 5s"] {
            #expect(DurationText.milliseconds(text) == nil, "\(text)")
        }
        #expect(DurationText.milliseconds("0.25s") == 250)
        #expect(DurationText.milliseconds("300") == 300)
    }

    @Test func aLatencyRangeWithANegativeOrEmptyEndIsRefused() throws {
        var fixture = try EngineFixture()
        for text in ["latency:-5s", "latency:0x10s", "latency:1e1s", "latency:5s-", "latency:-", "latency:1s--2s", "slow:-1s"] {
            let response = fixture.handle(fixture.signed("GET", "/api/v1/app/start-config", headers: [("X-Accord-Inject", text)], bearer: .none))
            #expect(response.json?.value(at: "/data/error") == .string("invalid_injection"), "\(text): \(response.text)")
        }
        let fine = fixture.handle(fixture.signed("GET", "/api/v1/app/start-config", headers: [("X-Accord-Inject", "latency:5ms-10ms")], bearer: .none))
        #expect(fine.status == 200)
    }

    @Test func multipartTakesTransportPaddingAndExtendedNames() throws {
        let body = Array(("--b  \t\r\nContent-Disposition: form-data; name*=UTF-8''%E7%94%A8%E9%80%94\r\n\r\navatar\r\n"
                          + "--b \r\nContent-Disposition: form-data; name=\"file\"; filename*=utf-8''%E5%A4%B4%E5%83%8F.jpg\r\n"
                          + "Content-Type: image/jpeg\r\n\r\nJPEG\r\n--b--  \r\n").utf8)
        let parsed = try MultipartBody(body, boundary: "b")
        #expect(parsed.parts.map(\.name) == ["用途", "file"])
        #expect(parsed.parts.last?.filename == "头像.jpg")
        #expect(parsed.parts.first?.text == "avatar")
        #expect(MultipartBody.extendedValue("iso-8859-1'en'caf%E9") == "café")
        #expect(MultipartBody.extendedValue("koi8-r''x") == nil)
        #expect(MultipartBody.extendedValue("UTF-8''%FF") == nil, "not UTF-8")
        // Anything else after a boundary is still refused.
        #expect(throws: MultipartBody.Failure.self) { try MultipartBody(Array("--b x\r\n\r\n--b--".utf8), boundary: "b") }
    }

    @Test func aHugeLatencyInjectionIsRefusedNotACrash() throws {
        var fixture = try EngineFixture()
        for text in ["latency:1e308s", "latency:9223372036854775s", "slow:1e400s", "latency:1ms-1e30s"] {
            let response = fixture.handle(fixture.signed("GET", "/api/v1/app/start-config", headers: [("X-Accord-Inject", text)], bearer: .none))
            #expect(response.status == 400, "\(text)")
            #expect(response.json?.value(at: "/data/error") == .string("invalid_injection"), "\(text)")
        }
    }

    @Test func theMockClockStaysWithinAHundredYears() throws {
        let clock = MockClock(wall: 1_796_025_600)
        try clock.advance(by: 86_400)
        #expect(clock.now == 1_796_112_000)
        #expect(throws: StorageError.self) { try clock.advance(by: .max) }
        #expect(throws: StorageError.self) { try clock.set(to: .min) }
        #expect(throws: StorageError.self) { try clock.set(to: .max) }
        #expect(clock.now == 1_796_112_000)   // unchanged by the refused moves
        try clock.set(to: 1_796_025_600 + MockClock.maxOffsetSeconds)
        #expect(throws: StorageError.self) { try clock.advance(by: 1) }
    }

    @Test func controlCallsWithOutOfRangeNumbersAnswer400AndTheServerGoesOn() throws {
        var fixture = try EngineFixture()
        let calls: [(String, String, String)] = [
            ("GET", "/__accord/requests?limit=-1", "invalid_limit"),
            ("GET", "/__accord/requests?limit=99999999999999999999", "invalid_limit"),
            ("POST", #"{"advance":"99999999999999999d"}"#, "invalid_clock"),
            ("POST", #"{"advance":"9223372036854775807s"}"#, "invalid_clock"),
            ("POST", #"{"set":-9223372036854775808}"#, "clock_out_of_range"),
            ("POST", #"{"set":9223372036854775807}"#, "clock_out_of_range"),
        ]
        for (method, detail, kind) in calls {
            let request = method == "GET" ? MockRequest(method: "GET", target: detail)
                : Self.control("POST", "/__accord/clock", body: detail)
            let response = fixture.handle(request)
            #expect(response.status == 400, "\(detail)")
            #expect(response.json?["error"] == .string(kind), "\(detail): \(response.text)")
        }
        #expect(fixture.handle(fixture.signed("GET", "/api/v1/signals/quota")).code == .int(0))
        #expect(fixture.handle(MockRequest(method: "GET", target: "/__accord/clock")).json?["offset_seconds"] == .int(0))
    }

    // MARK: Who may steer the server

    @Test func steeringHeadersFromBeyondLoopbackNeedTheAdminToken() throws {
        var fixture = try EngineFixture(options: MockOptions(adminToken: "s3cret"))
        for header in ["X-Accord-Inject", "X-Accord-Scenario", "X-Accord-Session"] {
            var request = fixture.signed("GET", "/api/v1/signals/quota", headers: [(header, "3008")])
            request.isFromLoopback = false
            let refused = fixture.handle(request)
            #expect(refused.status == 403)
            #expect(refused.json?.value(at: "/data/error") == .string("steering_not_allowed"))
            #expect(refused.json?["msg"] == .string("\(header.lowercased()) from beyond this machine need X-Accord-Admin-Token (or start the server with --allow-remote-steering)"))
        }
        var withToken = fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Inject", "3008"), ("X-Accord-Admin-Token", "s3cret")])
        withToken.isFromLoopback = false
        #expect(fixture.handle(withToken).code == .int(3008))
        var plain = fixture.signed("GET", "/api/v1/signals/quota")
        plain.isFromLoopback = false
        #expect(fixture.handle(plain).code == .int(0))

        var open = try EngineFixture(options: { var options = MockOptions(adminToken: "s3cret"); options.allowsRemoteSteering = true; return options }())
        var allowed = open.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Inject", "3008")])
        allowed.isFromLoopback = false
        #expect(open.handle(allowed).code == .int(3008))
    }

    @Test func aCrossSitePageCannotDriveTheControlAPI() throws {
        let fixture = try EngineFixture()
        let rule = #"{"match":{"endpoint":"signal.publish"},"respond":"quota"}"#
        // What a form or a no-cors fetch can send: a simple content type.
        let textPlain = fixture.handle(Self.control("POST", "/__accord/rules", body: rule, contentType: "text/plain"))
        #expect(textPlain.status == 415)
        #expect(textPlain.json?["error"] == .string("json_required"))
        let noBody = fixture.handle(Self.control("POST", "/__accord/reset", body: nil, contentType: nil))
        #expect(noBody.status == 415)
        // A foreign page's Origin, with a JSON type after a preflight it would never get.
        let foreign = fixture.handle(Self.control("POST", "/__accord/rules", body: rule, headers: [("Origin", "https://evil.example")]))
        #expect(foreign.status == 403)
        #expect(foreign.json?["error"] == .string("foreign_origin"))
        // DNS rebinding: the browser sends the attacker's name as Host.
        let rebound = fixture.handle(Self.control("GET", "/__accord/requests", body: nil, headers: [("Host", "evil.example:8080")]))
        #expect(rebound.status == 403)
        #expect(rebound.json?["error"] == .string("foreign_host"))
        #expect(try fixture.state.rules.all.isEmpty)
        // The console's own page and curl still work.
        let console = fixture.handle(Self.control("POST", "/__accord/rules", body: rule,
                                                  headers: [("Origin", "http://localhost:8080"), ("Host", "localhost:8080")]))
        #expect(console.status == 201)
        for host in ["127.0.0.1:8080", "localhost", "[::1]:8080", "127.0.0.2"] {
            #expect(fixture.handle(Self.control("GET", "/__accord/rules", body: nil, headers: [("Host", host)])).status == 200, "\(host)")
        }
    }

    @Test func aPreflightCarriesOneAllowOrigin() throws {
        let fixture = try EngineFixture()
        let response = fixture.handle(MockRequest(method: "OPTIONS", target: "/api/v1/signals/inbox", headers: [
            ("Origin", "http://localhost:3000"), ("Access-Control-Request-Method", "GET"),
        ]))
        #expect(response.headers.filter { $0.name == "Access-Control-Allow-Origin" }.count == 1)
    }

    // MARK: Rules are bounded and read strictly

    @Test func rulesStopAtTheirCapWith429() throws {
        let fixture = try EngineFixture()
        let rule = #"{"match":{"endpoint":"signal.inbox","session":"s"},"respond":"quota"}"#
        for _ in 0..<InjectionRules.defaultCapacity {
            #expect(fixture.handle(Self.control("POST", "/__accord/rules", body: rule)).status == 201)
        }
        let refused = fixture.handle(Self.control("POST", "/__accord/rules", body: rule))
        #expect(refused.status == 429)
        #expect(refused.json?["error"] == .string("too_many_rules"))
        #expect(try fixture.state.rules.all.count == InjectionRules.defaultCapacity)
        // A thousand rules for another endpoint leave this one untouched.
        #expect(try fixture.state.rules.fire(endpoint: "signal.quota", user: nil, session: "s") == nil)
        #expect(try fixture.state.rules.fire(endpoint: "signal.inbox", user: nil, session: "s")?.id == 1)
    }

    /// A ban's texts are at most a KiB each, and at most as many users are banned at once
    /// as token pairs are kept (10,000): 3,000 bans of two 60 KB texts took 353 MB before.
    @Test func bansStopAtTheirCapAndTheirTextsAtAKiB() throws {
        let fixture = try EngineFixture()
        let long = String(repeating: "x", count: UserBan.maxTextBytes + 1)
        for member in ["reason", "until", "appeal_url"] {
            let body = member == "reason" ? #"{"reason":"\#(long)"}"# : #"{"reason":"spam","\#(member)":"\#(long)"}"#
            let refused = fixture.handle(Self.control("POST", "/__accord/users/7/ban", body: body))
            #expect(refused.status == 400)
            #expect(refused.json?["message"] == .string("'\(member)' takes at most 1024 bytes, found 1025"))
        }
        #expect(try fixture.state.tokens.ban(uid: 7) == nil)
        let capacity = fixture.state.tokens.capacity
        for uid in 0..<capacity {
            #expect(fixture.handle(Self.control("POST", "/__accord/users/\(uid)/ban", body: #"{"reason":"spam"}"#)).status == 200)
        }
        let refused = fixture.handle(Self.control("POST", "/__accord/users/\(capacity)/ban", body: #"{"reason":"spam"}"#))
        #expect(refused.status == 429)
        #expect(refused.json?["error"] == .string("too_many_bans"))
        // A standing ban may change, and a lifted one makes room.
        #expect(fixture.handle(Self.control("POST", "/__accord/users/0/ban", body: #"{"reason":"fraud"}"#)).status == 200)
        #expect(fixture.handle(Self.control("DELETE", "/__accord/users/1/ban", body: nil)).status == 200)
        #expect(fixture.handle(Self.control("POST", "/__accord/users/\(capacity)/ban", body: #"{"reason":"spam"}"#)).status == 200)
        #expect(try fixture.state.tokens.ban(uid: 0)?.reason == "fraud")
    }

    @Test func invalidRuleMembersAreNamed() throws {
        let fixture = try EngineFixture()
        let cases: [(String, String)] = [
            (#"{"match":{"endpoint":"signal.inbox","user":"abc"},"respond":"quota"}"#, "'match.user' must be an integer, found a string \"abc\""),
            (#"{"match":{"endpoint":"signal.inbox","session":5},"respond":"quota"}"#, "'match.session' must be a string, found an integer 5"),
            (#"{"match":{"endpoint":"signal.inbox"},"respond":"quota","times":0}"#, "'times' must be from 1 to 1000000, found 0"),
            (#"{"match":{"endpoint":"signal.inbox"},"respond":"quota","after":-1}"#, "'after' must be from 0 to 1000000, found -1"),
            (#"{"match":{"endpoint":"signal.inbox"},"respond":"quota","probability":1.5}"#, "'probability' must be from 0.0 to 1.0, found 1.5"),
            (#"{"match":{"endpoint":"signal.inbox","users":1},"respond":"quota"}"#, "unknown member 'match.users'; did you mean 'user'?; expected endpoint, user, session"),
            (#"{"match":{"endpoint":"signal.inbox"},"respond":"quota","time":2}"#, "unknown member 'time'; did you mean 'times'?; expected match, respond, fault, times, probability, after"),
            (#"[]"#, "the body must be a JSON object"),
        ]
        for (body, message) in cases {
            let response = fixture.handle(Self.control("POST", "/__accord/rules", body: body))
            #expect(response.status == 400, "\(body)")
            #expect(response.json?["message"] == .string(message), "\(body): \(response.text)")
        }
        #expect(try fixture.state.rules.all.isEmpty)
    }

    // MARK: Requests read exactly as sent

    @Test func duplicateMembersAreRefusedWithBothPositions() throws {
        var fixture = try EngineFixture()
        let response = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: "{\"content\":\"hi\",\n\"is_flash\":false,\"content\":\"\"}"))
        #expect(response.status == 400)
        #expect(response.json?["msg"] == .string("the body is not JSON: duplicate member 'content' (first at line 1, column 2) at line 2, column 18 (byte 34)"))
        #expect(response.json?.value(at: "/data/first") == .object([.init("line", .int(1)), .init("column", .int(2))]))
        #expect(response.json?.value(at: "/data/line") == .int(2))
        // Past sixteen members the names are hashed; the answer is the same kind.
        let many = (0..<20).map { "\"k\($0)\":1" }.joined(separator: ",") + ",\"k3\":2"
        #expect(throws: JSONReader.Failure.self) { try JSONReader.read(Array("{\(many)}".utf8)) }
    }

    @Test func anEncodedNULIsRefusedAndAnEncodedSlashStaysInItsSegment() throws {
        var fixture = try EngineFixture()
        for target in ["/api/v1/signals/sg%00evil", "/api/v1/signals/inbox?filter=all%00x"] {
            let response = fixture.handle(fixture.signed("GET", target))
            #expect(response.status == 400, "\(target)")
            #expect(response.json?.value(at: "/data/error") == .string("nul_in_target"))
        }
        // `x%2Freply` is one segment: the detail route with id "x/reply", never signal.reply.
        let post = fixture.handle(fixture.signed("POST", "/api/v1/signals/x%2Freply", body: #"{"content":"好"}"#))
        #expect(post.status == 405)
        #expect(post.summary.endpoint == nil)
        let get = fixture.handle(fixture.signed("GET", "/api/v1/signals/x%2Freply"))
        #expect(get.summary.endpoint == "signal.detail")
        // Letters may be escaped too; they route as written.
        #expect(fixture.handle(fixture.signed("GET", "/api/v1/signals/%71uota")).summary.endpoint == "signal.quota")
    }

    @Test func lengthsCountUnicodeScalarsSoCombiningMarksCannotHideBulk() throws {
        var fixture = try EngineFixture()
        // 250 letters each with a combining accent: 250 characters, 500 scalars.
        let accented = String(repeating: "e\u{301}", count: 250)
        let fits = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"\#(accented)","is_flash":false}"#))
        #expect(fits.code == .int(0))
        let over = fixture.handle(fixture.signed("POST", "/api/v1/signals", body: #"{"content":"\#(accented)x","is_flash":false}"#))
        #expect(over.status == 400)
        #expect(over.json?.value(at: "/data/violations/0/expected") == .string("at most 500 characters"))
    }

    @Test func aLongUnknownPathGetsNoSuggestionsButAShortOneDoes() throws {
        var fixture = try EngineFixture()
        let long = fixture.handle(fixture.signed("GET", "/api/v1/" + String(repeating: "a", count: 13_000)))
        #expect(long.status == 404)
        #expect(long.json?.value(at: "/data/nearest") == .array([]))
        let short = fixture.handle(fixture.signed("GET", "/api/v1/signal/inbox"))
        #expect(short.json?.value(at: "/data/nearest/0") == .string("GET /api/v1/signals/inbox"))
    }

    @Test func aSessionNameHasALengthCapAndScenarioProgressASessionCap() throws {
        var fixture = try EngineFixture()
        let long = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Session", String(repeating: "s", count: 129))]))
        #expect(long.status == 400)
        #expect(long.json?.value(at: "/data/error") == .string("invalid_session"))
        let progress = ScenarioProgress(capacity: 3)
        let scenario = Scenario(name: "s", steps: [Scenario.Step(endpoint: "*", action: nil), Scenario.Step(endpoint: "*", action: nil)])
        for session in ["a", "b", "c", "d", "e"] { _ = progress.step(for: "x", session: session, scenario: scenario) }
        #expect(progress.count == 3)
    }

    // MARK: Recording never tears a line

    @Test func aFailedRecordingIsCountedReportedOnceAndNeverTorn() throws {
        let reports = Reports()
        let recorder = try JournalRecorder(path: "/dev/full", report: { reports.add($0) })
        recorder.append(Array("{\"seq\":1}\n".utf8))
        recorder.append(Array("{\"seq\":2}\n".utf8))
        #expect(recorder.status.written == 0)
        #expect(recorder.status.lost == 2)
        #expect(recorder.status.lastError?.hasPrefix("writing to /dev/full failed: No space left on device") == true)
        #expect(reports.all.count == 1)
        #expect(throws: JournalRecorder.OpenError.self) { try JournalRecorder(path: "/nonexistent/dir/x.jsonl", report: { _ in }) }
    }

    // MARK: Helpers

    static func control(_ method: String, _ target: String, body: String?, contentType: String? = "application/json",
                        headers: [(String, String)] = []) -> MockRequest {
        var all = headers
        if let contentType { all.append(("Content-Type", contentType)) }
        return MockRequest(method: method, target: target, headers: all, body: Array((body ?? "").utf8))
    }
}

/// Lines a component reported, collected across threads.
final class Reports: @unchecked Sendable {
    private let lock = NSLock()
    private var lines: [String] = []

    func add(_ line: String) {
        lock.lock()
        lines.append(line)
        lock.unlock()
    }

    var all: [String] {
        lock.lock()
        defer { lock.unlock() }
        return lines
    }
}
