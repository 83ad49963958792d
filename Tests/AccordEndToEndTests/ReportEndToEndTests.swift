import AccordJSON
import AccordSync
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `accord serve --report` as a CI job runs it: UI tests against the server, a stop
/// through the control API or SIGTERM, and a report file and exit status.
@Suite(.serialized) struct ReportEndToEndTests {
    private func temporaryFile(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("accord-report-\(UUID().uuidString)-\(name)").path
    }

    private func send(_ server: ServerProcess, _ method: String, _ target: String, body: String? = nil, token: String? = nil,
                      headers: [String: String] = [:]) async throws -> Int {
        try await ServeEndToEndTests.send(server, method, target, body: body, token: token, headers: headers).0.statusCode
    }

    @Test func shutdownWritesTheJUnitReportAndFailsOnViolations() async throws {
        let path = temporaryFile("report.xml")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try ServerProcess(arguments: ["--quiet", "--no-reload", "--report", path, "--fail-on", "violations"])
        let token = try ServeEndToEndTests.login(server)
        #expect(try await send(server, "GET", "/api/v1/signals/inbox", token: token) == 200)
        #expect(try await send(server, "POST", "/api/v1/signals", body: #"{"content":""}"#, token: token) == 400)
        #expect(try await send(server, "GET", "/api/v1/users/me", token: token, headers: ["X-Accord-Inject": "1008"]) == 200)
        var stop = URLRequest(url: URL(string: server.baseURL + "/__accord/shutdown")!)
        stop.httpMethod = "POST"
        stop.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: stop)
        #expect((response as? HTTPURLResponse)?.statusCode == 202)
        #expect(server.waitForExit(timeout: 10) == 1)
        let summary = "accord serve: 4 requests, 1 violation in 1 endpoint, 3/66 endpoints covered"
        #expect(server.standardOutput.contains(summary + "\n"))
        for page in ["docs/ci.md", "docs/serve.md"] { #expect(try Repository.document(page).contains("(`\(summary)`)"), "\(page) shows another summary") }
        #expect(server.standardError.contains("accord serve: failing: violations (--fail-on)"))
        let document = try JUnitDocument(Data(contentsOf: URL(fileURLWithPath: path)))
        #expect(document.failures == 1)
        let failed = document.suites.flatMap(\.cases).filter(\.failed)
        #expect(failed.map(\.name) == ["signal.publish POST /signals"])
        #expect(failed.first?.failureText.contains(#""pointer":"/body/is_flash""#) == true)
    }

    @Test func sigtermUnderLoadLeavesAWholeReportOfWhatWasAnswered() async throws {
        let path = temporaryFile("report.json")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let server = try ServerProcess(arguments: ["--quiet", "--no-reload", "--report", path, "--report-format", "json"])
        let answered = Locked((invalid: 0, all: 0))
        let sent = Locked(0)
        let load = Task {
            await withTaskGroup(of: Void.self) { group in
                for worker in 0..<8 {
                    group.addTask {
                        for index in 0..<10_000 {
                            sent.withLock { $0 += 1 }
                            let target = "/api/v1/signals/inbox?limit=\(index % 2 == 0 ? "many" : "5")&w=\(worker)"
                            guard let status = try? await send(server, "GET", target) else { return }
                            answered.withLock { $0.all += 1; if status == 400 { $0.invalid += 1 } }
                        }
                    }
                }
            }
        }
        while answered.withLock({ $0.all }) < 300 { try await Task.sleep(for: .milliseconds(20)) }
        let (status, _) = server.terminate()
        await load.value
        #expect(status == 0)
        let report = try JSONReader.read(Array(Data(contentsOf: URL(fileURLWithPath: path))))
        guard case .int(let requests)? = report.value(at: "/summary/requests"),
              case .int(let violations)? = report.value(at: "/summary/violations") else {
            Issue.record("no summary in \(report)")
            return
        }
        let (invalid, all) = answered.withLock { ($0.invalid, $0.all) }
        // Every answer a client received was counted; a request cut by the stop may be counted without its answer arriving.
        #expect(requests >= all && requests <= sent.withLock { $0 })
        #expect(violations >= invalid && violations <= requests)
        // "1 violation" or "N violations": the prefix holds for both.
        #expect(server.standardOutput.contains("accord serve: \(requests) requests, \(violations) violation"))
    }

    @Test func aRecordedJournalIsCheckedAgainOffline() async throws {
        let journal = temporaryFile("run.jsonl")
        defer { try? FileManager.default.removeItem(atPath: journal) }
        let server = try ServerProcess(arguments: ["--quiet", "--no-reload", "--record", journal])
        let token = try ServeEndToEndTests.login(server)
        #expect(try await send(server, "GET", "/api/v1/signals/inbox?filter=flash", token: token) == 200)
        #expect(try await send(server, "POST", "/api/v1/signals", body: #"{"content":"","is_flash":false}"#, token: token) == 400)
        _ = server.terminate()

        let check = Process()
        check.executableURL = ServerProcess.executable
        check.arguments = ["check-requests", journal, "--contracts", Repository.contracts]
        let output = Pipe()
        check.standardOutput = output
        try check.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        check.waitUntilExit()
        #expect(check.terminationStatus == 1)
        #expect(text == """
        \(journal):3: POST /api/v1/signals: /body/content: expected at least 1 character, found a string "" (0 characters)
        accord check-requests: 3 requests, 1 violation in 1 endpoint, 2/66 endpoints covered

        """)
    }

    /// One run's traffic, counted by `serve`'s own report and by `check-requests` on the
    /// journal it recorded: the same requests, injected answers, violations and codes per
    /// endpoint, with CORS preflights counted by neither and injected answers (by header
    /// and by a standing rule) never violations.
    @Test func serveAndCheckRequestsReportTheSameTraffic() async throws {
        let (journal, served, checked) = (temporaryFile("run.jsonl"), temporaryFile("served.json"), temporaryFile("checked.json"))
        defer { for path in [journal, served, checked] { try? FileManager.default.removeItem(atPath: path) } }
        let server = try ServerProcess(arguments: ["--quiet", "--no-reload", "--record", journal, "--report", served, "--report-format", "json"])
        let token = try ServeEndToEndTests.login(server)
        #expect(try await send(server, "GET", "/api/v1/signals/inbox", token: token) == 200)
        #expect(try await send(server, "POST", "/api/v1/signals", body: #"{"content":""}"#, token: token) == 400)
        #expect(try await send(server, "GET", "/api/v1/users/me", token: token, headers: ["X-Accord-Inject": "5001"]) == 200)
        let rule = #"{"match":{"endpoint":"signal.quota"},"respond":{"code":5001},"times":1}"#
        #expect(try await send(server, "POST", "/__accord/rules", body: rule) == 201)
        #expect(try await send(server, "GET", "/api/v1/signals/quota", token: token) == 200)
        #expect(try await send(server, "OPTIONS", "/api/v1/signals", headers: ["Origin": "http://localhost:3000", "Access-Control-Request-Method": "POST"]) == 204)
        #expect(try await send(server, "OPTIONS", "/api/v1/signals") == 204)
        #expect(try await send(server, "POST", "/__accord/shutdown", body: "{}") == 202)
        #expect(server.waitForExit(timeout: 10) == 0)

        let check = try ExternalCommand.run(ServerProcess.executable.path, ["check-requests", journal, "--contracts", Repository.contracts,
                                                                            "--report", checked, "--report-format", "json"])
        #expect(check.status == 1, "\(check.errors)")
        let reports = try [served, checked].map { try JSONReader.read(Array(Data(contentsOf: URL(fileURLWithPath: $0)))) }
        func counts(_ report: JSONValue) -> [String] {
            guard case .array(let endpoints)? = report["endpoints"] else { return [] }
            return endpoints.compactMap { endpoint -> String? in
                guard case .int(let requests)? = endpoint["requests"], requests > 0, case .string(let id)? = endpoint["id"] else { return nil }
                return "\(id): \(requests) requests, \(endpoint["injected"].map { JSONWriter.string($0) } ?? "-") injected, "
                    + "\(endpoint["violations"].map { JSONWriter.string($0) } ?? "-") violations, codes \(endpoint["codes"].map { JSONWriter.string($0) } ?? "-")"
            }
        }
        #expect(counts(reports[0]) == counts(reports[1]))
        #expect(counts(reports[0]) == [
            "auth.login-phone: 1 requests, 0 injected, 0 violations, codes {\"0\":1}",
            "user.me: 1 requests, 1 injected, 0 violations, codes {\"5001\":1}",
            "signal.inbox: 1 requests, 0 injected, 0 violations, codes {\"0\":1}",
            "signal.publish: 1 requests, 0 injected, 1 violations, codes {\"1000\":1}",
            "signal.quota: 1 requests, 1 injected, 0 violations, codes {\"5001\":1}",
        ], "\(counts(reports[0]))")
        #expect(reports[0]["summary"]?["violations"] == reports[1]["summary"]?["violations"])
        #expect(reports[0]["summary"]?["requests"] == reports[1]["summary"]?["requests"])
    }
}
