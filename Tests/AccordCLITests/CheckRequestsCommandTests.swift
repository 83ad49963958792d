import AccordCLI
import AccordJSON
import AccordSync
import AccordTesting
import Foundation
import Testing

/// `accord check-requests` run in-process on captures in the shapes real tools write.
@Suite struct CheckRequestsCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let run = CommandRun(arguments)
        return (run.status, run.output, run.error)
    }

    private func write(_ text: String, name: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("accord-capture-\(UUID().uuidString)-\(name)").path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test(arguments: CaptureSamples.Tool.allCases)
    func harFromEachToolIsJudgedTheSameWay(tool: CaptureSamples.Tool) throws {
        let path = try write(try CaptureSamples().har(tool), name: "\(tool).har")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, output, error) = run(["check-requests", path, "--contracts", Repository.contracts])
        #expect(status == 1)
        #expect(error == "")
        var lines = output.split(separator: "\n").map(String.init)
        // The nonces are fresh in each run: the replayed one is named in the message.
        let replay = "\(path):entry 7: GET /api/v1/signals/inbox: nonce replay (1004): X-Nonce 'nonce-1-"
        #expect(lines.count == 6 && lines[4].hasPrefix(replay) && lines[4].hasSuffix("' was already used within 600 s"))
        lines.remove(at: min(4, lines.count - 1))
        #expect(lines == [
            "\(path):entry 2: POST /api/v1/signals: /body/content: expected at least 1 character, found a string \"\" (0 characters)",
            "\(path):entry 3: GET /api/v1/users/me: response /data/nickname: missing required member 'nickname'",
            "\(path):entry 3: GET /api/v1/users/me: response /data/nick_name: unknown member 'nick_name'; did you mean 'nickname'?",
            "\(path):entry 6: GET /api/v1/subscriptions/products: response HTTP 502 with text/html body that is not JSON "
                + "(expected a JSON value, found '<'); the contract answers with a JSON envelope",
            "accord check-requests: 6 requests, 5 violations in 4 endpoints, 2/66 endpoints covered, 1 skipped (other hosts)",
        ])
    }

    @Test func reportsInJUnitAndJSONWithTheCaptureOrigin() throws {
        let path = try write(try CaptureSamples().har(.charles), name: "charles.har")
        let report = path + ".json"
        defer { for file in [path, report] { try? FileManager.default.removeItem(atPath: file) } }
        let (status, _, _) = run(["check-requests", path, "--contracts", Repository.contracts, "--report", report, "--report-format", "json",
                                  "--quiet"])
        #expect(status == 1)
        let json = try JSONReader.read(Array(Data(contentsOf: URL(fileURLWithPath: report))))
        guard case .array(let endpoints)? = json["endpoints"] else { Issue.record("no endpoints"); return }
        let me = try #require(endpoints.first { $0["id"] == .string("user.me") })
        #expect(me.value(at: "/failures/0/side") == .string("response"))
        #expect(me.value(at: "/failures/0/origin") == .string("\(path):entry 3"))
        #expect(me.value(at: "/failures/0/details/pointer") == .string("/data/nickname"))
    }

    @Test func selectsTheHostAndAcceptsTheAppSecret() throws {
        let path = try write(try CaptureSamples().har(.proxyman), name: "proxyman.har")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let other = run(["check-requests", path, "--contracts", Repository.contracts, "--host", "staging.example.com", "--quiet"])
        #expect(other.output == "accord check-requests: 0 requests, 0 violations in 0 endpoints, 0/66 endpoints covered, 7 skipped (other hosts)\n")
        #expect(other.status == 0)
        let wrongSecret = run(["check-requests", path, "--contracts", Repository.contracts, "--app-secret", "dev_app_key:not-the-secret"])
        #expect(wrongSecret.output.contains("entry 1: GET /api/v1/signals/inbox: signature (1001): "))
        // app.start-config needs no signature: the one request that passes.
        #expect(wrongSecret.output.hasSuffix("accord check-requests: 6 requests, 8 violations in 4 endpoints, 1/66 endpoints covered, 1 skipped (other hosts)\n"))
    }

    /// What `serve` answers itself or injects is judged as `serve`'s report judges it: a
    /// CORS preflight counts as no request, an injected answer as no violation; a binary
    /// part a tool stored as Latin-1 text is read back as its bytes, and one stored as
    /// UTF-8 (its bytes replaced by U+FFFD) is said to be lost, not called a violation.
    @Test func preflightsInjectedAnswersAndBinaryPartsStoredAsTextAreJudgedAsServeDoes() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<100).map { UInt8($0 * 2) }
        let service = TestSigner.serviceHeaders.map { ["name": $0.0, "value": $0.1] }
        func upload(_ file: String) -> [String: Any] {
            let text = "--B\r\nContent-Disposition: form-data; name=\"purpose\"\r\n\r\navatar\r\n--B\r\nContent-Disposition: form-data; name=\"file\"; "
                + "filename=\"a.png\"\r\nContent-Type: image/png\r\n\r\n\(file)\r\n--B--\r\n"
            return ["method": "POST", "url": "https://api.example.com/api/v1/uploads/images", "headers": service + [["name": "Content-Type", "value": "multipart/form-data; boundary=B"]],
                    "postData": ["mimeType": "multipart/form-data; boundary=B", "text": text]]
        }
        let me = ["method": "GET", "url": "https://api.example.com/api/v1/users/me", "headers": service] as [String: Any]
        var injected = me
        injected["headers"] = service + [["name": "X-Accord-Inject", "value": "5001"]]
        let preflight: [String: Any] = ["method": "OPTIONS", "url": "https://api.example.com/api/v1/signals", "headers": [
            ["name": "Origin", "value": "http://localhost:3000"], ["name": "Access-Control-Request-Method", "value": "POST"]]]
        let answer5001: [String: Any] = ["status": 200, "content": ["mimeType": "application/json", "text": #"{"code":5001,"msg":"not found","data":{}}"#]]
        let entries: [[String: Any]] = [
            ["request": upload(String(String.UnicodeScalarView(png.map { Unicode.Scalar($0) })))],
            ["request": upload(String(decoding: png, as: UTF8.self))],
            ["request": preflight, "response": ["status": 204, "content": [String: Any]()]],
            ["request": injected, "response": answer5001],
            ["request": me, "response": answer5001],
        ].map { $0.merging(["startedDateTime": "2026-12-01T08:00:00Z"]) { first, _ in first } }
        let har = try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "entries": entries]])
        let path = try write(String(decoding: har, as: UTF8.self), name: "tools.har")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let result = run(["check-requests", path, "--contracts", Repository.contracts, "--no-sign"])
        #expect(result.output == """
            \(path):entry 5: GET /api/v1/users/me: response /code: code 5001 is not declared for 'user.me' (it declares 0)
            accord check-requests: 3 requests, 1 violation in 1 endpoint, 2/66 endpoints covered, 1 not checked (binary parts the capture stored as text, losing their bytes)

            """)
    }

    @Test func brokenCapturesAreOneLineErrorsWithExitTwo() throws {
        let har = try CaptureSamples().har(.chrome)
        let truncated = try write(String(decoding: har.utf8.prefix(har.utf8.count / 2), as: UTF8.self), name: "truncated.har")
        let notJSON = try write("<html>not a capture</html>", name: "page.har")
        let torn = try write(#"{"seq":1,"method":"GET","path":"/api/v1/users/me","status":200}"# + "\n" + #"{"seq":2,"meth"#, name: "torn.jsonl")
        defer { for file in [truncated, notJSON, torn] { try? FileManager.default.removeItem(atPath: file) } }
        let cut = run(["check-requests", truncated, "--contracts", Repository.contracts, "--quiet"])
        #expect(cut.status == 2)
        #expect(cut.error.hasPrefix("error: \(truncated): truncated: the file ends at byte \(har.utf8.count / 2) inside entry "))
        #expect(cut.error.split(separator: "\n").count == 1)
        let page = run(["check-requests", notJSON, "--contracts", Repository.contracts])
        #expect(page.status == 2)
        #expect(page.error == "error: \(notJSON): not a HAR file: it is not a JSON object (it starts with '<html>not a capt')\n")
        let line = run(["check-requests", torn, "--contracts", Repository.contracts, "--no-sign"])
        #expect(line.status == 2)
        #expect(line.error == "error: \(torn):2: the last line is torn (14 bytes with no newline and not whole JSON)\n")
        #expect(line.output.contains("1 request, 1 violation"), "the whole line before it was checked: \(line.output)")
        let missing = run(["check-requests", "/nonexistent.jsonl", "--contracts", Repository.contracts])
        #expect(missing.status == 2 && missing.error == "error: /nonexistent.jsonl: cannot be read\n")
        let none = run(["check-requests", "--contracts", Repository.contracts])
        #expect(none.status == 2 && none.error.hasPrefix("error: give one or more capture files"))
    }
}
