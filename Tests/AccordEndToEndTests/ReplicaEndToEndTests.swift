import AccordJSON
import AccordTesting
import Foundation
import Testing
import TongbanAPI

/// Three `accord serve --storage redis://…` replicas on one real Redis behave as one
/// server: whatever one learns (a nonce, a rotation, a ban, a rule, a record, the
/// clock), the others answer by, and each journal lists every replica's requests.
@Suite(.serialized) struct ReplicaEndToEndTests {
    @Test func aNonceUsedOnOneReplicaIsAReplayOnTheOthers() async throws {
        let replicas = try Replicas()
        let session = try await Replicas.login(replicas[0])
        let target = "/api/v1/signals/quota"
        let headers = ServeEndToEndTests.signedHeaders(target, token: session.access)
        #expect(Replicas.code(try await Replicas.send(replicas[0], "GET", target, headers: headers)) == 0)
        #expect(Replicas.code(try await Replicas.send(replicas[1], "GET", target, headers: headers)) == 1004)
        #expect(Replicas.code(try await Replicas.send(replicas[2], "GET", target, headers: headers)) == 1004)
    }

    @Test func aRefreshOnOneReplicaRetiresTheOldTokenOnAll() async throws {
        let replicas = try Replicas()
        let session = try await Replicas.login(replicas[0])
        let refresh = "/api/v1/auth/token/refresh"
        let rotated = try await Replicas.send(replicas[1], "POST", refresh, body: #"{"refresh_token":"\#(session.refresh)"}"#)
        #expect(Replicas.code(rotated) == 0)
        #expect(Replicas.code(try await Replicas.send(replicas[2], "POST", refresh, body: #"{"refresh_token":"\#(session.refresh)"}"#)) == 1007)
        guard case .string(let access)? = rotated.envelope?.value(at: "/data/access_token") else { Issue.record("no token"); return }
        // The old access token is retired everywhere (1005), the new one valid everywhere.
        #expect(Replicas.code(try await Replicas.send(replicas[0], "GET", "/api/v1/signals/quota", token: session.access)) == 1005)
        #expect(Replicas.code(try await Replicas.send(replicas[2], "GET", "/api/v1/signals/quota", token: access)) == 0)
    }

    /// Ten refreshes of one token at once, spread over the three: exactly one rotates it,
    /// in each of 200 runs; and Redis saw no client read a token and then write it.
    @Test func tenConcurrentRefreshesOverThreeReplicasRotateOnce() async throws {
        let replicas = try Replicas()
        let monitor = try RedisMonitor(redis: replicas.redis)
        var winners: [Int: Int] = [:]
        for _ in 0..<200 {
            let session = try await Replicas.login(replicas[0])
            let body = #"{"refresh_token":"\#(session.refresh)"}"#
            let codes = try await withThrowingTaskGroup(of: Int?.self) { group in
                for index in 0..<10 {
                    group.addTask { Replicas.code(try await Replicas.send(replicas[index], "POST", "/api/v1/auth/token/refresh", body: body)) }
                }
                return try await group.reduce(into: [Int?]()) { $0.append($1) }
            }
            winners[codes.filter { $0 == 0 }.count, default: 0] += 1
            #expect(codes.allSatisfy { $0 == 0 || $0 == 1007 }, "\(codes)")
        }
        #expect(winners == [1: 200])
        // Other suites share this Redis: only this test's keys count.
        let commands = try monitor.stop().filter { command in command.arguments.contains { $0 == replicas.prefix || $0.hasPrefix(replicas.prefix + ":") } }
        // Each of the 2,000 refreshes and 200 logins ran its token change as one script.
        #expect(commands.filter { !$0.fromScript && $0.arguments.first == "EVALSHA" }.count >= 2_200)
        let clientWrites = commands.filter { !$0.fromScript && $0.isWrite && !$0.isAtomicOnItsOwn }
        #expect(clientWrites.isEmpty, "written outside a script: \(clientWrites.prefix(5).map(\.arguments))")
        let stats = try replicas.redis.commandStats()
        #expect((stats["evalsha"] ?? 0) >= 2_200)
    }

    @Test func aBanARuleTheClockAndRecordsReachEveryReplica() async throws {
        let replicas = try Replicas()
        let session = try await Replicas.login(replicas[0])
        let quota = "/api/v1/signals/quota"

        // A ban set through A's control API answers 1008 on C.
        try await Control(server: replicas[0]).call("POST", "users/\(session.uid)/ban", #"{"reason":"spam"}"#)
        #expect(Replicas.code(try await Replicas.send(replicas[2], "GET", quota, token: session.access)) == 1008)
        try await Control(server: replicas[1]).call("DELETE", "users/\(session.uid)/ban")
        #expect(Replicas.code(try await Replicas.send(replicas[2], "GET", quota, token: session.access)) == 0)

        // A rule with `times: 1` added on B fires exactly once across all three.
        let (status, _) = try await Control(server: replicas[1]).call("POST", "rules", #"{"match":{"endpoint":"signal.quota"},"respond":{"code":3008},"times":1}"#)
        #expect(status == 201)
        var codes: [Int?] = []
        for index in 0..<9 { codes.append(Replicas.code(try await Replicas.send(replicas[index], "GET", quota, token: session.access))) }
        #expect(codes.filter { $0 == 3008 }.count == 1 && codes.filter { $0 == 0 }.count == 8, "\(codes)")

        // The clock advanced on C is seen by A.
        try await Control(server: replicas[2]).call("POST", "clock", #"{"advance":"3h"}"#)
        #expect(Replicas.code(try await Replicas.send(replicas[0], "GET", quota, token: session.access)) == 1002)
        try await Control(server: replicas[0]).call("POST", "clock", #"{"advance":"-3h"}"#)

        // A record posted on A is listed on B, and its cursor pages on C.
        let fresh = try await Replicas.login(replicas[0])
        for index in 0..<3 {
            let posted = try await Replicas.send(replicas[0], "POST", "/api/v1/signals", body: #"{"content":"r\#(index)","is_flash":false}"#,
                                                 token: fresh.access, session: "shared")
            #expect(Replicas.code(posted) == 0)
        }
        let first = try await Replicas.send(replicas[1], "GET", "/api/v1/signals/mine?limit=2", token: fresh.access, session: "shared")
        #expect(first.envelope?.value(at: "/data/items/0/content") == .string("r2"))
        guard case .string(let cursor)? = first.envelope?.value(at: "/data/next_cursor") else { Issue.record("no cursor"); return }
        let escaped = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
        let second = try await Replicas.send(replicas[2], "GET", "/api/v1/signals/mine?limit=2&cursor=\(escaped)", token: fresh.access, session: "shared")
        #expect(Replicas.code(second) == 0)
        #expect(second.envelope?.value(at: "/data/items/0/content") == .string("r0"))
    }

    @Test func everyReplicasJournalListsEveryRequestWithWhoAnswered() async throws {
        let replicas = try Replicas()
        for index in 0..<6 {
            try await Replicas.send(replicas[index], "GET", "/api/v1/signals/quota", session: "journal")
        }
        for server in replicas.servers {
            let entries = try await Replicas.journal(on: server, session: "journal", count: 6)
            // Listed in the order they reached Redis, which a replica's batch may delay past the next replica's request.
            let answered = entries.compactMap { entry -> String? in if case .string(let name)? = entry["replica"] { name } else { nil } }
            #expect(answered.sorted() == ["r0", "r0", "r1", "r1", "r2", "r2"])
        }
    }

    /// A replica on Redis records what it answered (`--record`) as the journal lists it,
    /// each entry one line, with the replica's name.
    @Test func aReplicaRecordsEachEntryOnceAsOneLine() async throws {
        let record = FileManager.default.temporaryDirectory.appendingPathComponent("accord-replica-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: record) }
        let replicas = try Replicas(count: 1, arguments: ["--record", record.path])
        for _ in 0..<3 {
            try await Replicas.send(replicas[0], "GET", "/api/v1/signals/quota", session: "recorded")
        }
        var lines: [Substring] = []
        for _ in 0..<50 {
            lines = ((try? String(contentsOf: record, encoding: .utf8)) ?? "").split(separator: "\n")
            if lines.count >= 3 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let entries = lines.compactMap { try? JSONReader.read(Array($0.utf8)) }
        #expect(entries.count == 3, "\(lines)")
        for entry in entries {
            #expect(entry["endpoint"] == .string("signal.quota") && entry["replica"] == .string("r0"), "\(entry)")
        }
    }

    /// The generated client through the token-expiry flow, each request on the next replica.
    @Test func theGeneratedClientRefreshesAcrossReplicas() async throws {
        let replicas = try Replicas()
        let api = APIClient(configuration: ClientConfiguration(serverURL: URL(string: replicas[0].baseURL)!, appKey: "dev_app_key", appSecret: "dev_app_secret",
                                                               deviceID: "replicas", os: "ios", appVersion: "1.2.0"),
                            transport: RoundRobinTransport(replicas))
        let login = AuthLoginPhoneRequest(phone: "13800138000", code: "123456",
                                          deviceInfo: DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0"))
        _ = try await api.send(API.auth.loginPhone(login))
        try await Control(server: replicas[2]).call("POST", "tokens/expire", "{}")
        _ = try await api.send(API.signal.quota())
        _ = try await api.send(API.signal.quota())
        var journal: [JSONValue] = []
        for _ in 0..<50 {
            journal = try await Control(server: replicas[1]).call("GET", "requests").1.flatMap { if case .array(let items)? = $0["requests"] { items } else { nil } } ?? []
            if journal.count >= 5 { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        let flow = Replicas.inAnsweredOrder(journal).map { "\($0["endpoint"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? "?"):\($0["code"].flatMap { if case .int(let code) = $0 { code } else { nil } } ?? -1)" }
        #expect(flow == ["auth.login-phone:0", "signal.quota:1002", "auth.refresh:0", "signal.quota:0", "signal.quota:0"])
        #expect(Set(journal.compactMap { if case .string(let name)? = $0["replica"] { name } else { nil } }) == ["r0", "r1", "r2"])
    }

    /// With `--check-flows`, a session's requests spread over the replicas are judged
    /// whole: the 1002 on one, the refresh on another, the old token on a third make one
    /// violation, which every replica's report and journal show; no replica saw it alone.
    @Test func theFlowRulesJudgeASessionWhoseCallsWentToEveryReplica() async throws {
        let replicas = try Replicas(arguments: ["--check-flows"])
        let login = try await Replicas.send(replicas[0], "POST", "/api/v1/auth/login/phone", body: ServeEndToEndTests.loginBody, session: "spread")
        guard case .string(let access)? = login.envelope?.value(at: "/data/access_token"),
              case .string(let refresh)? = login.envelope?.value(at: "/data/refresh_token") else { Issue.record("login failed: \(login)"); return }
        try await Control(server: replicas[0]).call("POST", "tokens/expire", "{}")
        #expect(Replicas.code(try await Replicas.send(replicas[1], "GET", "/api/v1/signals/quota", token: access, session: "spread")) == 1002)
        let refreshed = try await Replicas.send(replicas[2], "POST", "/api/v1/auth/token/refresh", body: #"{"refresh_token":"\#(refresh)"}"#, session: "spread")
        #expect(Replicas.code(refreshed) == 0)
        // The old token, expired and retired: 1002 again.
        #expect(Replicas.code(try await Replicas.send(replicas[0], "GET", "/api/v1/signals/quota", token: access, session: "spread")) == 1002)
        for server in replicas.servers {
            // Numbered as each replica's journal writer reached Redis, which need not be the order
            // the calls were answered in: the calls in answered order, with their numbers.
            let entries = try await Replicas.journal(on: server, session: "spread", count: 4)
            let numbers = Replicas.inAnsweredOrder(entries).compactMap { entry -> Int? in if case .int(let number)? = entry["seq"] { number } else { nil } }
            let verdicts = entries.flatMap { entry -> [String] in
                guard case .array(let violations)? = entry["flow_violations"] else { return [] }
                return violations.compactMap { if case .string(let message)? = $0["message"] { message } else { nil } }
            }
            guard numbers.count == 4 else { Issue.record("\(entries)"); continue }
            let expected = "signal.quota: after 1002 at #\(numbers[1]) and the refresh at #\(numbers[2]), #\(numbers[3]) was sent with the old token "
                + "(refresh-and-retry: no request with the old token after the refresh) in session spread"
            #expect(verdicts == [expected])
            let report = try await Control(server: server).call("GET", "report").1
            guard case .array(let matrix)? = report?["flows"]?["matrix"] else { Issue.record("no flows: \(String(describing: report))"); continue }
            let reported = matrix.flatMap { cell -> [String] in
                guard case .array(let violations)? = cell["violations"] else { return [] }
                return violations.compactMap { if case .string(let message)? = $0["message"] { message } else { nil } }
            }
            #expect(reported == [expected])
        }
    }
}
