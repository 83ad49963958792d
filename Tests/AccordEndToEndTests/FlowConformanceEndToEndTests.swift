import AccordJSON
import AccordTesting
import Foundation
import Testing

/// Clients with one bad habit each (`Clients/bad_habits.py`) against `accord serve
/// --check-flows`: each gives exactly the violation of its habit, live in the server's
/// report, and the same from its recorded journal offline (`accord check-requests
/// --check-flows`), the two reports' flows identical.
@Suite struct FlowConformanceEndToEndTests {
    static let script = Repository.root.appendingPathComponent("Tests/AccordEndToEndTests/Clients/bad_habits.py").path

    @Test(arguments: [
        ("old-token", "signal.inbox refresh-and-retry: no request with the old token after the refresh"),
        ("refresh-twice", "signal.inbox refresh-and-retry: one refresh for the calls that met the code"),
        ("after-logout", "user.me logout: no authenticated call until a new login"),
        ("alert-loop", "signal.publish alert: the same call not sent again within the alert window"),
        ("banned-retry", "signal.inbox ban: a banned call is not retried"),
        ("reset-loop", "signal.inbox retry: no more retries after a fault than the retry policy's attempts"),
        ("post-retry", "signal.publish retry: after a fault, only the calls the retry policy retries are sent again"),
    ])
    func eachBadHabitIsTheViolationItShouldBeLiveAndOffline(_ habit: String, _ expected: String) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-flows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let (journal, live, offline) = (directory.appendingPathComponent("run.jsonl").path, directory.appendingPathComponent("live.json").path,
                                        directory.appendingPathComponent("offline.json").path)
        let server = try ServerProcess(arguments: ["--quiet", "--no-reload", "--check-flows", "--record", journal, "--report", live, "--report-format", "json"])
        let client = try ExternalCommand.run("python3", [Self.script, String(server.port), habit])
        #expect(client.status == 0, "\(client.errors)")
        try await Control(server: server).call("POST", "shutdown")
        _ = server.waitForExit(timeout: 10)
        let check = try ExternalCommand.run(ServerProcess.executable.path, ["check-requests", journal, "--contracts", Repository.contracts,
                                                                            "--check-flows", "--report", offline, "--report-format", "json"])
        #expect(check.errors == "", "\(check.errors)")
        let reports = try [live, offline].map { try JSONReader.read(Array(Data(contentsOf: URL(fileURLWithPath: $0)))) }
        #expect(reports[0]["flows"] != nil && reports[0]["flows"] == reports[1]["flows"],
                "live: \(reports[0]["flows"].map { JSONWriter.string($0) } ?? "none")\noffline: \(reports[1]["flows"].map { JSONWriter.string($0) } ?? "none")")
        guard case .array(let matrix)? = reports[0]["flows"]?["matrix"] else {
            Issue.record("no flows in the report")
            return
        }
        let broken = matrix.flatMap { cell -> [String] in
            guard case .string(let endpoint)? = cell["endpoint"], case .string(let flow)? = cell["flow"], case .array(let violations)? = cell["violations"] else { return [] }
            return violations.compactMap { if case .string(let rule)? = $0["rule"] { "\(endpoint) \(flow): \(rule)" } else { nil } }
        }
        #expect(broken == [expected], "\(broken)")
        #expect(check.text.contains("flow: \(expected.split(separator: " ")[0]): after "), "\(check.text)")
        // The journal's entry that broke the rule says so itself, as it was filed.
        let offending = matrix.flatMap { cell -> [String] in
            guard case .array(let violations)? = cell["violations"] else { return [] }
            return violations.compactMap { if case .int(let number)? = $0["offending"], case .string(let rule)? = $0["rule"] { "#\(number) \(rule)" } else { nil } }
        }
        let verdicts = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n").flatMap { line -> [String] in
            let entry = try JSONReader.read(Array(line.utf8))
            guard case .int(let number)? = entry["seq"], case .array(let violations)? = entry["flow_violations"] else { return [] }
            return violations.compactMap { if case .string(let rule)? = $0["rule"] { "#\(number) \(rule)" } else { nil } }
        }
        #expect(!offending.isEmpty && verdicts == offending, "journal: \(verdicts), report: \(offending)")
    }
}
