import AccordContract
import AccordMock
import AccordMockState
import AccordServer
import AccordTesting
import Foundation
import Testing

/// `accord verify` as a backend team runs it: against `accord serve` (every check
/// passes), and against a stand-in backend that drifts from the contract (each drift
/// named with its JSON pointer or check).
@Suite(.serialized) struct VerifyEndToEndTests {
    /// Runs `accord verify` and returns its exit status, standard output and standard error.
    private func verify(_ arguments: [String]) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = ServerProcess.executable
        process.arguments = ["verify", "--contracts", Repository.contracts, "--header", "X-App-Version:1.2.0"] + arguments
        let output = Pipe(), error = Pipe()
        process.standardOutput = output
        process.standardError = error
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let errors = String(decoding: error.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, text, errors)
    }

    @Test func accordServePassesEveryCheck() throws {
        let server = try ServerProcess(arguments: ["--quiet", "--no-reload"])
        let (status, output, error) = try verify(["--base-url", server.baseURL + "/api/v1", "--allow-writes", "--quiet"])
        #expect(error == "")
        #expect(output == "accord verify: 72 passed, 0 failed, 1 skipped against \(server.baseURL)/api/v1\n")
        #expect(status == 0)
    }

    @Test func writesAreSkippedUnlessAllowedAndSaidSo() throws {
        let server = try ServerProcess(arguments: ["--quiet", "--no-reload"])
        let (status, output, _) = try verify(["--base-url", server.baseURL + "/api/v1", "--only", "signal.*", "--concurrency", "2"])
        #expect(status == 0)
        #expect(output.contains("SKIP signal.publish examples: writes (POST); --allow-writes runs it\n"))
        #expect(output.contains("skipped 6 checks that write; --allow-writes runs them: signal.publish, signal.reply, signal.flash-viewed, signal.delete, signal.draw\n"))
        #expect(output.contains("PASS signal.inbox example 'default'\n"))
        #expect(!output.contains("user.me example"))
    }

    @Test func aDriftingBackendFailsWithEachDriftNamed() throws {
        // The mock with signatures unchecked (so any X-Sign, a replayed nonce and a stale
        // timestamp pass), answers rewritten: a renamed member and a string for an int.
        let project = Repository.project
        let contract = project.contract
        let engine = MockEngine(contract: contract, fixtures: project.fixtures, collections: project.collections, options: MockOptions(verifiesSignatures: false),
                                state: MockState(nonceTTLSeconds: 600))
        let server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threads: 2), handler: { request in
            var response = engine.handle(request)
            var text = String(decoding: response.bodyBytes, as: UTF8.self)
            // A login answer missing a member: reported, and its token used for the checks after it.
            if request.path.hasSuffix("/auth/login/phone") { text = text.replacingOccurrences(of: "\"is_new_user\":false,", with: "") }
            if request.path.hasSuffix("/users/me") { text = text.replacingOccurrences(of: "\"nickname\"", with: "\"nick_name\"") }
            if request.path.hasSuffix("/signals/quota") { text = text.replacingOccurrences(of: "\"daily_limit\":20", with: "\"daily_limit\":\"20\"") }
            response.body = .bytes(Array(text.utf8))
            return response
        }, log: { _ in })
        try server.start()
        defer { _ = server.stop(grace: .milliseconds(100)) }
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("accord-verify-\(UUID().uuidString).xml").path
        defer { try? FileManager.default.removeItem(atPath: report) }
        let (status, output, _) = try verify(["--base-url", "http://127.0.0.1:\(server.port)/api/v1", "--quiet", "--report", report])
        #expect(status == 1)
        let document = try JUnitDocument(Data(contentsOf: URL(fileURLWithPath: report)))
        let failed = document.suites.flatMap(\.cases).filter(\.failed).map(\.name).sorted()
        #expect(failed == ["auth.im-token GET /auth/im/token", "auth.login-phone POST /auth/login/phone", "signal.quota GET /signals/quota", "user.me GET /users/me"])
        let failures = output.split(separator: "\n").filter { $0.hasPrefix("FAIL") }.map(String.init).sorted()
        #expect(failures == [
            "FAIL auth.im-token replayed nonce: expected code 1004, answered HTTP 200, code 0: the backend accepts a X-Nonce it has seen",
            "FAIL auth.im-token stale timestamp: expected code 1003, answered HTTP 200, code 0: the backend accepts a X-Timestamp outside ±300 s",
            "FAIL auth.im-token tampered signature: expected code 1001, answered HTTP 200, code 0: the backend accepts a wrong X-Sign",
            "FAIL auth.login-phone example 'default': /data/is_new_user: missing required member 'is_new_user'",
            "FAIL signal.quota example 'default': /data/daily_limit: expected integer, found a string \"20\"",
            "FAIL user.me example 'default': /data/nick_name: unknown member 'nick_name'; did you mean 'nickname'?",
            "FAIL user.me example 'default': /data/nickname: missing required member 'nickname'",
        ])
    }

    @Test func unreachableAndHangingBackendsAreOneLineErrors() throws {
        let refused = try verify(["--base-url", "http://127.0.0.1:1/api/v1", "--retries", "0"])
        #expect(refused.status == 2)
        #expect(refused.error == "error: cannot reach the backend: POST http://127.0.0.1:1/api/v1/auth/login/phone: Couldn't connect to server\n")
        // A listener that never answers.
        let listener = LoopbackListener()
        defer { listener.close() }
        let port = listener.port
        let hanging = try verify(["--base-url", "http://127.0.0.1:\(port)/api/v1", "--timeout", "300ms"])
        #expect(hanging.status == 2)
        #expect(hanging.error == "error: cannot reach the backend: POST http://127.0.0.1:\(port)/api/v1/auth/login/phone: no answer within 300 ms\n")
        let usage = try verify(["--base-url", "ftp://example.com"])
        #expect(usage.status == 2 && usage.error.hasPrefix("error: '--base-url' takes an http:// or https:// URL, found 'ftp://example.com'"))
    }
}
