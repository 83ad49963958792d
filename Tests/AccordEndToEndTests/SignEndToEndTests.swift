import AccordTesting
import Foundation
import Testing

/// `accord sign --curl` as a user runs it: each command line it prints, run by bash
/// against `accord serve`, passes every check (signature, headers, token) and is answered
/// with code 0, for a query with `+` and Chinese, a nested JSON body and an upload.
@Suite struct SignEndToEndTests {
    private static func sign(_ arguments: [String]) throws -> String {
        let outcome = try ExternalCommand.run(ServerProcess.executable.path, ["sign", "--contracts", Repository.contracts] + arguments)
        #expect(outcome.status == 0, "\(outcome.errors)")
        return outcome.text.trimmingCharacters(in: .newlines)
    }

    /// Runs a command line with bash and returns the envelope it got back.
    private static func curl(_ line: String) throws -> [String: Any] {
        let outcome = try ExternalCommand.run("/bin/bash", ["-c", line])
        #expect(outcome.status == 0, "\(outcome.errors)")
        return (try JSONSerialization.jsonObject(with: outcome.output) as? [String: Any]) ?? [:]
    }

    @Test func everyPrintedCommandLineIsAnsweredWithCodeZero() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let base = server.baseURL + "/api/v1"
        let login = try Self.curl(Self.sign(["--curl", "POST", base + "/auth/login/phone", "--body",
                                             #"{"phone":"13800138000","code":"123456","device_info":{"os":"ios","device_id":"D-1","#
                                             + #""os_version":"26.1","model":"iPhone17,2","app_version":"1.2.0"}}"#]))
        #expect(login["code"] as? Int == 0, "\(login)")
        let token = try #require((login["data"] as? [String: Any])?["access_token"] as? String)

        let search = try Self.sign(["--curl", "--token", token, "GET", base + "/knowledge-bases/search?q=Swift+并发&limit=5"])
        #expect(search.contains("q=Swift+%E5%B9%B6%E5%8F%91&limit=5'"), "\(search)")
        #expect(try Self.curl(search)["code"] as? Int == 0)
        // The signature covers the query: one letter more and the server refuses it.
        let tampered = try Self.curl(search.replacingOccurrences(of: "q=Swift+", with: "q=Swifty+"))
        #expect(tampered["code"] as? Int == 1001, "\(tampered)")

        // The README's tour: a request without the signing headers, then one that `accord sign` signed with a token this server never issued.
        let readme = try Repository.document("README.md")
        let unsigned = try ExternalCommand.run("/bin/bash", ["-c", "curl -s \(base)/signals/inbox -H 'X-OS: ios' -H 'X-App-Version: 1.2.0' -H 'X-Device-Id: d'"])
        #expect(readme.contains("/api/v1/signals/inbox -H 'X-OS: ios' -H 'X-App-Version: 1.2.0' -H 'X-Device-Id: d'\n" + unsigned.text + "\n"), "\(unsigned.text)")
        let stranger = try ExternalCommand.run("/bin/bash", ["-c", try Self.sign(["--curl", "GET", base + "/signals/quota", "--token", "at_3f9c2e7a51d04b8e"])])
        #expect(readme.contains("--token at_3f9c2e7a51d04b8e)\"\n" + stranger.text + "\n"), "\(stranger.text)")

        let photo = FileManager.default.temporaryDirectory.appendingPathComponent("accord-sign-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: photo) }
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<100).map { UInt8($0) }).write(to: photo)
        let upload = try Self.sign(["--curl", "--token", token, "POST", base + "/uploads/images", "--form", "file=@" + photo.path, "--form", "purpose=avatar"])
        #expect(upload.hasSuffix(" -F 'file=@\(photo.path);type=image/png' --form-string purpose=avatar"), "\(upload)")
        let uploaded = try Self.curl(upload)
        #expect(uploaded["code"] as? Int == 0, "\(uploaded)")
        #expect((uploaded["data"] as? [String: Any])?["purpose"] as? String == "avatar")
    }

    /// Without `--curl`: the headers, one `Name: value` a line, the signature the rule
    /// gives for the fixed time and nonce.
    @Test func theHeadersAreTheRulesForAFixedTimeAndNonce() throws {
        let headers = try Self.sign(["--timestamp", "1700000000", "--nonce", "n-0001", "--header", "X-Device-Id:D-1",
                                     "GET", "http://127.0.0.1:8080/api/v1/signals/inbox?limit=20&cursor=abc"])
        let expected = TestSigner.headers(target: "/api/v1/signals/inbox?limit=20&cursor=abc", body: nil, timestamp: 1_700_000_000, nonce: "n-0001")
        #expect(headers.split(separator: "\n").map(String.init) == ["X-Device-Id: D-1", "X-OS: ios", "X-App-Version: 0.0", "X-Language: zh"]
                + expected.map { "\($0.0): \($0.1)" })
    }

    @Test func mistakesAreUsageErrors() throws {
        for (arguments, message) in [
            (["GET", "/api/v1/users/me"], "error: the URL is absolute with a path, as in http://localhost:8080/api/v1/users/me; found '/api/v1/users/me'"),
            (["GET", "http://127.0.0.1:8080/api/v1/nowhere"], "error: no endpoint of the contracts answers GET /api/v1/nowhere"),
            (["POST", "http://127.0.0.1:8080/api/v1/signals", "--body", "{"], "error: the body is not JSON"),
            (["GET", "http://127.0.0.1:8080/api/v1/users/me", "--nonce", "a b"], "error: '--nonce' is 1 to 64 of A-Z a-z 0-9 _ -, found 'a b'"),
        ] {
            let outcome = try ExternalCommand.run(ServerProcess.executable.path, ["sign", "--contracts", Repository.contracts] + arguments)
            #expect(outcome.status == 2)
            #expect(outcome.errors.hasPrefix(message), "\(outcome.errors)")
        }
    }
}
