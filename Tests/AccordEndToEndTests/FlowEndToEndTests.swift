import AccordContract
import AccordJSON
import AccordTesting
import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing

/// The error flows of the business-code table, played by a client that behaves as the
/// seed's does, against the real server; what reached the server is read from its journal.
@Suite(.serialized) struct FlowEndToEndTests {
    private func count(_ entries: [JSONValue], endpoint: String, code: Int) -> Int {
        entries.filter { $0["endpoint"] == .string(endpoint) && $0["code"] == .int(code) }.count
    }

    private func concurrentInboxCalls(_ client: SeedClient, _ count: Int) async -> Int {
        await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<count { group.addTask { (try? await client.call("GET", "/api/v1/signals/inbox")) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
    }

    @Test func tenConcurrentRequestsMeetingAnExpiredTokenCauseOneRefresh() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let control = Control(server: server)
        let client = SeedClient(server: server, session: "expiry")
        try await client.login()
        let (status, expired) = try await control.call("POST", "tokens/expire", "{}")
        #expect(status == 200)
        #expect(expired?["expired"] == .int(1))

        #expect(await concurrentInboxCalls(client, 10) == 10)
        let journal = try await control.journal(session: "expiry")
        #expect(count(journal, endpoint: "signal.inbox", code: 1002) == 10)
        #expect(count(journal, endpoint: "auth.refresh", code: 0) == 1)
        #expect(count(journal, endpoint: "signal.inbox", code: 0) == 10)
    }

    @Test func tenConcurrentRequestsMeeting1005RefreshOnceSilently() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let control = Control(server: server)
        let client = SeedClient(server: server, session: "silent")
        try await client.login()
        #expect(try await control.call("POST", "tokens/invalidate", #"{"uid": 10086}"#).1?["invalidated"] == .int(1))

        #expect(await concurrentInboxCalls(client, 10) == 10)
        let journal = try await control.journal(session: "silent")
        #expect(count(journal, endpoint: "signal.inbox", code: 1005) == 10)
        #expect(count(journal, endpoint: "auth.refresh", code: 0) == 1)
        #expect(count(journal, endpoint: "signal.inbox", code: 0) == 10)
    }

    @Test func injectionRulesCountAndExpire() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let control = Control(server: server)
        let client = SeedClient(server: server, session: "rule")
        try await client.login()
        let (status, rule) = try await control.call("POST", "rules",
            #"{"match": {"endpoint": "signal.inbox", "session": "rule"}, "respond": "token-invalid", "times": 1}"#)
        #expect(status == 201)
        #expect(rule?["times_left"] == .int(1))
        #expect(try await client.call("GET", "/api/v1/signals/inbox") != nil)   // 1005, one refresh, retry
        let journal = try await control.journal(session: "rule")
        #expect(journal.compactMap { $0["code"] } == [0, 1005, 0, 0].map(JSONValue.int))
        #expect(journal[1]["injected"] == .string("rule:1"))
        #expect(try await control.call("GET", "rules").1?["rules"] == .array([]))
    }

    @Test func forcedLogoutEndsTheSessionAndItsRefreshToken() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let client = SeedClient(server: server, session: "elsewhere")
        try await client.login()
        let refreshToken = try #require(await client.refreshToken)
        #expect(try await Control(server: server).call("POST", "users/10086/force-logout").1?["revoked"] == .int(1))
        await #expect(throws: SeedClient.Failure.loggedOut(code: 1006)) { try await client.call("GET", "/api/v1/users/me") }
        #expect(await client.notifications == ["logout"])
        #expect(await client.accessToken == nil)
        // The revoked pair's refresh token is refused too.
        let body = #"{"refresh_token":"\#(refreshToken)"}"#
        let connection = try RawConnection(port: server.port)
        let headers = ServeEndToEndTests.signedHeaders("/api/v1/auth/token/refresh", body: body).map { "\($0.key): \($0.value)\r\n" }.joined()
        connection.send("POST /api/v1/auth/token/refresh HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        #expect(connection.receive().contains(#""code":1007"#))
    }

    @Test func banCarriesBanInfo() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let client = SeedClient(server: server, session: "ban")
        try await client.login()
        try await Control(server: server).call("POST", "users/10086/ban",
            #"{"reason": "多次发布违规内容", "until": "2026-12-07T00:00:00Z", "appeal_url": "https://tongban.example.com/appeal"}"#)
        await #expect(throws: SeedClient.Failure.banned(.object([
            .init("reason", .string("多次发布违规内容")), .init("until", .string("2026-12-07T00:00:00Z")),
            .init("appeal_url", .string("https://tongban.example.com/appeal")),
        ]))) { try await client.call("GET", "/api/v1/signals/inbox") }
        #expect(await client.notifications == ["ban"])
        // Logging in again is refused as well.
        await #expect(throws: SeedClient.Failure.self) { try await client.login() }
    }

    @Test func anExpiredRefreshTokenEndsInLogout() async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--access-ttl", "30s", "--refresh-ttl", "1h"])
        let control = Control(server: server)
        let client = SeedClient(server: server, session: "stale")
        try await client.login()
        #expect(try await client.call("GET", "/api/v1/signals/quota") != nil)
        try await control.call("POST", "clock", #"{"advance": "2h"}"#)
        await #expect(throws: SeedClient.Failure.loggedOut(code: 1007)) { try await client.call("GET", "/api/v1/signals/quota") }
        #expect(await client.notifications == ["logout"])
        let journal = try await control.journal(session: "stale")
        #expect(journal.compactMap { $0["code"] } == [0, 0, 1002, 1007].map(JSONValue.int))
    }

    @Test func accessTokensExpireByThemselvesOnTheMockClock() async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--access-ttl", "30s"])
        let control = Control(server: server)
        let client = SeedClient(server: server, session: "ttl")
        try await client.login()
        try await control.call("POST", "clock", #"{"advance": "31s"}"#)
        #expect(try await client.call("GET", "/api/v1/signals/quota") != nil)
        let journal = try await control.journal(session: "ttl")
        // login, the expired call, the refresh, the retry
        #expect(journal.compactMap { $0["code"] } == [0, 1002, 0, 0].map(JSONValue.int))
    }

    /// The business code a call ended with: 0 on success.
    private func code(_ call: () async throws -> JSONValue?) async -> Int {
        do {
            _ = try await call()
            return 0
        } catch SeedClient.Failure.loggedOut(let code), SeedClient.Failure.business(let code) {
            return code
        } catch SeedClient.Failure.banned {
            return 1008
        } catch {
            return -1
        }
    }

    @Test func everyShippedScenarioStepsAsWritten() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let control = Control(server: server)
        /// Runs `calls` in the scenario's own session; returns the codes the client saw and the journal's steps.
        func run(_ scenario: String, _ calls: [(String, String, String?)]) async throws -> (codes: [Int], steps: [String]) {
            let client = SeedClient(server: server, session: scenario, scenario: scenario)
            try await client.login()
            var codes: [Int] = []
            for (method, target, body) in calls { codes.append(await code { try await client.call(method, target, body: body) }) }
            let steps = try await control.journal(session: scenario).dropFirst().map { entry -> String in
                var parts: [String] = []
                if case .string(let endpoint)? = entry["endpoint"] { parts.append(endpoint) }
                if case .int(let code)? = entry["code"] { parts.append(String(code)) }
                if case .string(let injected)? = entry["injected"] { parts.append(injected) }
                return parts.joined(separator: " ")
            }
            return (codes, steps)
        }
        let inbox = ("GET", "/api/v1/signals/inbox", String?.none)
        let expiry = try await run("token-expiry", [inbox])
        #expect(expiry.codes == [0])
        #expect(expiry.steps == ["signal.inbox 1002 scenario:token-expiry#1", "auth.refresh 0 scenario:token-expiry#2",
                                 "signal.inbox 0 scenario:token-expiry#3"])
        let silent = try await run("silent-refresh", [inbox])
        #expect(silent.codes == [0])
        #expect(silent.steps == ["signal.inbox 1005 scenario:silent-refresh#1", "auth.refresh 0 scenario:silent-refresh#2",
                                 "signal.inbox 0 scenario:silent-refresh#3"])
        let forced = try await run("forced-logout", [("GET", "/api/v1/users/me", nil)])
        #expect(forced.codes == [1006])
        #expect(forced.steps == ["user.me 1006 scenario:forced-logout#1"])
        // The ban holds: its one step repeats, however many calls follow.
        let banned = try await run("banned", [("GET", "/api/v1/signals/quota", nil), ("GET", "/api/v1/users/me", nil),
                                              ("GET", "/api/v1/signals/inbox", nil), ("GET", "/api/v1/signals/quota", nil)])
        #expect(banned.codes == [1008, 1008, 1008, 1008])
        #expect(banned.steps == ["signal.quota 1008 scenario:banned#1", "user.me 1008 scenario:banned#1",
                                 "signal.inbox 1008 scenario:banned#1", "signal.quota 1008 scenario:banned#1"])
        let quota = try await run("quota", [("POST", "/api/v1/signals", #"{"content":"第 21 条","is_flash":false}"#),
                                            ("GET", "/api/v1/signals/quota", nil)])
        #expect(quota.codes == [3008, 0])
        #expect(quota.steps == ["signal.publish 3008 scenario:quota#1", "signal.quota 0 scenario:quota#2"])
        // The step names its fixture: the quota read right after the 3008 shows it used up.
        let answers = try await control.journal(session: "quota").compactMap { entry -> String? in
            if case .string(let answer)? = entry["answer"] { answer } else { nil }
        }
        #expect(answers.last == "fixture:exhausted")
        let failing = try await run("refresh-fails", [inbox])
        #expect(failing.codes == [1007])
        #expect(failing.steps == ["signal.inbox 1002 scenario:refresh-fails#1", "auth.refresh 1007 scenario:refresh-fails#2"])
    }

    @Test func twoSessionsDoNotSeeEachOthersRules() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let control = Control(server: server)
        let first = SeedClient(server: server, session: "first"), second = SeedClient(server: server, session: "second")
        try await first.login()
        try await second.login()
        try await control.call("POST", "rules", #"{"match": {"endpoint": "signal.*", "session": "first"}, "respond": {"code": 3001}}"#)
        async let one = code { try await first.call("GET", "/api/v1/signals/quota") }
        async let two = code { try await second.call("GET", "/api/v1/signals/quota") }
        #expect(await [one, two] == [3001, 0])
    }

    @Test func controlAPIRefusesCallersWithoutTheAdminToken() async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--admin-token", "s3cret"])
        let (status, refusal) = try await Control(server: server).call("GET", "rules")
        #expect(status == 401)
        #expect(refusal?["message"] == .string("the control API needs the X-Accord-Admin-Token header given to --admin-token"))
        #expect(try await Control(server: server, adminToken: "wrong").call("GET", "rules").0 == 401)
        #expect(try await Control(server: server, adminToken: "s3cret").call("GET", "rules").0 == 200)
    }

    @Test func faultsAreWhatTheyClaimOnTheWire() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let token = try ServeEndToEndTests.login(server)
        func request(_ inject: String) throws -> RawConnection {
            let connection = try RawConnection(port: server.port)
            var headers = ServeEndToEndTests.signedHeaders("/api/v1/signals/quota", token: token)
            headers["X-Accord-Inject"] = inject
            connection.send("GET /api/v1/signals/quota HTTP/1.1\r\nHost: x\r\n\(headers.map { "\($0.key): \($0.value)\r\n" }.joined())\r\n")
            return connection
        }
        #expect(try request("reset").firstRead().error == ECONNRESET)
        let empty = try request("empty").firstRead()
        #expect(empty.text.isEmpty && empty.error == 0)
        let unavailable = try request("503").receive { $0.contains("Unavailable") }
        #expect(unavailable.hasPrefix("HTTP/1.1 503"))
        #expect(unavailable.contains("Retry-After: 5"))
        let malformed = try request("malformed").receive { $0.contains("\r\n\r\n{") }
        #expect(malformed.hasPrefix("HTTP/1.1 200"))
        if let start = malformed.range(of: "\r\n\r\n") {
            #expect(throws: JSONReader.Failure.self) { try JSONReader.read(Array(malformed[start.upperBound...].utf8)) }
        }
        let started = Date()
        let slow = try request("slow:150ms").receiveTimed { $0.contains("\r\n0\r\n") }
        #expect(slow.count >= 3, "the body came in \(slow.count) reads")
        #expect(Date().timeIntervalSince(started) >= 0.45)
        let delayed = Date()
        #expect(try request("latency:300ms").receive { $0.contains("}}") }.hasPrefix("HTTP/1.1 200"))
        #expect(Date().timeIntervalSince(delayed) >= 0.3)
        let unknown = try request("teapot").receive { $0.contains("}}") }
        #expect(unknown.contains(#""error":"invalid_injection""#))
    }

    @Test func recordedJournalKeepsEveryAnsweredRequestThroughSIGTERM() async throws {
        let record = FileManager.default.temporaryDirectory.appendingPathComponent("accord-journal-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: record) }
        let server = try ServerProcess(arguments: ["--quiet", "--record", record.path])
        let answered = TextBuffer()
        for _ in 0..<8 {
            Thread.detachNewThread {
                for _ in 0..<2_000 {
                    guard let connection = try? RawConnection(port: server.port) else { return }
                    connection.send("GET /api/v1/app/start-config HTTP/1.1\r\nHost: x\r\nConnection: close\r\nX-Device-Id: d\r\nX-OS: ios\r\nX-App-Version: 1.0.0\r\n\r\n")
                    if connection.receive().hasPrefix("HTTP/1.1 200") { answered.append(Data("x".utf8)) } else { return }
                }
            }
        }
        try await Task.sleep(for: .milliseconds(400))
        let (status, _) = server.terminate()
        try await Task.sleep(for: .milliseconds(200))
        let lines = try String(contentsOf: record, encoding: .utf8).split(separator: "\n")
        #expect(status == 0)
        #expect(answered.text.count > 50)
        #expect(lines.count >= answered.text.count, "\(lines.count) lines for \(answered.text.count) answers")
        #expect(lines.allSatisfy { (try? JSONReader.read(Array($0.utf8)))?["endpoint"] == .string("app.start-config") })
    }
}
