import AccordJSON
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `accord serve --state FILE`: the collections' records across restarts.
@Suite(.serialized) struct StateEndToEndTests {
    private func records(_ server: ServerProcess, session: String) async throws -> JSONValue? {
        let (data, _) = try await URLSession.shared.data(from: URL(string: server.baseURL + "/__accord/state/signals?session=\(session)")!)
        return try JSONReader.read(Array(data))["records"]
    }

    /// Stops the server through the control API and waits for it to exit.
    private func stop(_ server: ServerProcess) async throws {
        var request = URLRequest(url: URL(string: server.baseURL + "/__accord/shutdown")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        _ = try await URLSession.shared.data(for: request)
        #expect(server.waitForExit(timeout: 10) == 0)
    }

    private func temporaryFile() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("accord-state-\(UUID().uuidString).json").path
    }

    @Test func aSnapshotSurvivesARestartByteForByte() async throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let first = try ServerProcess(arguments: ["--quiet", "--no-reload", "--state", path])
        #expect(first.standardOutput.contains("accord serve: no state file at \(path) yet; starting from the seeds"))
        let seeded = try await records(first, session: "ui-1")
        try await stop(first)
        #expect(first.standardOutput.contains("accord serve: state written to \(path) (1 session)"))
        let written = try Data(contentsOf: URL(fileURLWithPath: path))

        try await Task.sleep(for: .milliseconds(1_100)) // a restart a second later renders {{now}} differently
        let second = try ServerProcess(arguments: ["--quiet", "--no-reload", "--state", path])
        #expect(second.standardOutput.contains("accord serve: state loaded from \(path): 1 session, 4 records"))
        #expect(try await records(second, session: "ui-1") == seeded)
        try await stop(second)
        #expect(try Data(contentsOf: URL(fileURLWithPath: path)) == written)
    }

    @Test func aBrokenSnapshotIsOneWarningAndTheSeeds() async throws {
        let path = temporaryFile()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let cases: [(String, String)] = [
            ("{\"accord_state\":1,\n \"collections\": {oops",
             "\(path):2:18: warning: not JSON: "),
            (#"{"accord_state":1,"collections":{"signals":{"type":"SignalDetail","key":"id","sessions":{"x":[{"id":5}]}}}}"#,
             "\(path): warning: /collections/signals/sessions/x/0/id: expected string, found an integer 5; starting from the seeds"),
            (#"{"accord_state":1,"collections":{"signals":{"type":"Signal","key":"id","sessions":{}}}}"#,
             "\(path): warning: /collections/signals: saved as a string \"Signal\" keyed by a string \"id\", now 'SignalDetail' keyed by 'id'; starting from the seeds"),
        ]
        for (content, warning) in cases {
            try Data(content.utf8).write(to: URL(fileURLWithPath: path))
            let server = try ServerProcess(arguments: ["--quiet", "--no-reload", "--state", path])
            try server.waitFor(timeout: 5) { _, errors in errors.contains("warning:") }
            let warnings = server.standardError.split(separator: "\n").filter { $0.contains("warning:") }
            #expect(warnings.count == 1)
            #expect(warnings.first.map { $0.hasPrefix(warning) } == true, "\(warnings)")
            guard case .array(let records)? = try await records(server, session: "x") else { Issue.record("no records"); continue }
            #expect(records.count == 4) // the seeds
        }
    }

    /// ThreadSanitizer's runtime cannot start under a small file-size limit (see HostileClientTests).
    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "ThreadSanitizer cannot run under ulimit -f"))
    func aSnapshotPastTheFileSizeLimitIsAnErrorAndTheReportIsStillWritten() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-fsize-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let state = folder.appendingPathComponent("state.json").path
        let report = folder.appendingPathComponent("report.json").path
        let server = try ServerProcess(arguments: ["--quiet", "--no-reload", "--state", state, "--report", report, "--report-format", "json"],
                                       fileSizeLimitKiB: 64)
        // Each session is seeded with about 1.5 KiB of records: 100 of them pass the 64 KiB limit.
        for session in 0..<100 { _ = try await records(server, session: "s\(session)") }
        try await stop(server)
        #expect(server.standardError.contains("error: cannot write '\(state)': File too large"), "\(server.standardError)")
        #expect(FileManager.default.fileExists(atPath: report), "the report is written after the failed snapshot")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path).sorted() == ["report.json"], "no temporary file is left")
    }

    @Test func aStateFileThatIsADeviceIsAWarning() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-device-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let link = folder.appendingPathComponent("state.json").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: "/dev/zero")
        let server = try ServerProcess(arguments: ["--quiet", "--no-reload", "--state", link])
        try server.waitFor(timeout: 5) { _, err in err.contains("warning: --state") }
        #expect(server.standardError.contains("warning: --state: \(link) is not a regular file (a device, a directory, or a link to one); starting from the seeds"))
        try await stop(server)
        #expect(try FileManager.default.attributesOfItem(atPath: link)[.type] as? FileAttributeType == .typeRegular)
    }

    @Test func recordsStayWithinTheSessionsByteBudgetAndAStringPastTheCapIsRefused() throws {
        let server = try ServerProcess(arguments: ["--quiet", "--no-reload", "--max-body", "2MiB", "--session-state-budget", "4MiB"])
        let token = try ServeEndToEndTests.login(server)
        func insert(_ lessonID: String) throws -> String {
            let body = #"{"lesson_id":"\#(lessonID)"}"#
            let headers = ServeEndToEndTests.signedHeaders("/api/v1/learning/sessions", body: body, token: token).map { "\($0.key): \($0.value)\r\n" }.joined()
            let connection = try RawConnection(port: server.port)
            connection.send("POST /api/v1/learning/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            return connection.receive()
        }
        // A string past the 1 MiB cap is a violation naming its member, not a record.
        let refused = try insert(String(repeating: "x", count: (1 << 20) + 1))
        #expect(refused.contains(#""code":1000"#) && refused.contains(#""pointer":"/body/lesson_id""#), "\(refused.prefix(300))")
        let before = server.residentKiB
        for _ in 0..<40 { #expect(try insert(String(repeating: "y", count: 900 << 10)).contains(#""code":0"#)) }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /__accord/state/learning-sessions?session=user:10086 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let state = try JSONReader.read(Array(connection.receive().split(separator: "\r\n\r\n", maxSplits: 1).last.map { Array($0.utf8) } ?? []))
        guard case .array(let records)? = state["records"], case .int(let kept)? = state.value(at: "/bytes/kept") else {
            Issue.record("no state: \(state)")
            return
        }
        let grown = server.residentKiB - before
        print("40 records of 900 KiB in a 4 MiB session: \(records.count) kept, \(kept) bytes, RSS +\(grown) KiB")
        #expect(kept <= 4 << 20)
        #expect(records.count == 4, "four records of 900 KiB fit 4 MiB")
        #expect(state.value(at: "/bytes/records_dropped_for_budget") == .int(37), "the seed and 40 inserts, four kept")
        #expect(grown < 16 << 10, "RSS grew by \(grown) KiB")
    }
}
