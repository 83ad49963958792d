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
