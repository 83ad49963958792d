import AccordContract
import AccordJSON
import AccordSigning
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `accord serve` as a user runs it: a real process on a loopback port.
@Suite(.serialized) struct ServeEndToEndTests {
    /// Headers every request of the contract needs, signed for `target` and `body`.
    static func signedHeaders(_ target: String, body: String? = nil, token: String? = nil) -> [String: String] {
        let signing = TestSigner.headers(target: target, body: body, timestamp: Int64(Date().timeIntervalSince1970), nonce: UUID().uuidString)
        var headers = Dictionary(uniqueKeysWithValues: signing)
        headers.merge(["X-Device-Id": "e2e", "X-OS": "ios", "X-App-Version": "1.2.0", "Content-Type": "application/json"]) { $1 }
        if let token { headers["Authorization"] = "Bearer \(token)" }
        return headers
    }

    static let loginBody = #"{"phone":"13800138000","code":"123456","device_info":{"device_id":"D-1","os":"ios","os_version":"26.1","model":"iPhone","app_version":"1.2.0"}}"#

    /// Logs in over a raw connection and returns the access token the server issued.
    static func login(_ server: ServerProcess) throws -> String {
        let connection = try RawConnection(port: server.port)
        let headers = signedHeaders("/api/v1/auth/login/phone", body: loginBody).map { "\($0.key): \($0.value)\r\n" }.joined()
        connection.send("POST /api/v1/auth/login/phone HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(headers)Content-Length: \(loginBody.utf8.count)\r\n\r\n\(loginBody)")
        let reply = connection.receive()
        guard let start = reply.range(of: "\r\n\r\n"),
              case .string(let token)? = try JSONReader.read(Array(reply[start.upperBound...].utf8)).value(at: "/data/access_token") else {
            throw ServerProcess.LaunchError(description: "login failed: \(reply)")
        }
        return token
    }

    /// Sends a signed request over URLSession; the answer and its JSON body.
    static func send(_ server: ServerProcess, _ method: String, _ target: String, body: String? = nil, token: String? = nil,
                      headers extra: [String: String] = [:]) async throws -> (HTTPURLResponse, JSONValue?) {
        var request = URLRequest(url: URL(string: server.baseURL + target)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        for (name, value) in Self.signedHeaders(target, body: body, token: token).merging(extra, uniquingKeysWith: { $1 }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
        let (data, response) = try await URLSession.shared.data(for: request)
        return (try #require(response as? HTTPURLResponse), try? JSONReader.read(Array(data)))
    }

    @Test func signedRequestsOverURLSessionGetFixtures() async throws {
        let server = try ServerProcess()
        let token = try Self.login(server)
        let (response, json) = try await Self.send(server, "GET", "/api/v1/signals/inbox?filter=flash", token: token)
        #expect(response.statusCode == 200)
        #expect(response.value(forHTTPHeaderField: "Content-Type") == "application/json; charset=utf-8")
        #expect(json?["code"] == .int(0))
        #expect(json?["data"]?["items"]?.value(at: "/0/id") == .string("sg_flash_1"))
        let (_, published) = try await Self.send(server, "POST", "/api/v1/signals", body: #"{"content":"周末爬山","is_flash":false}"#, token: token)
        #expect(published?["data"]?["content"] == .string("周末爬山"))
        let (_, quota) = try await Self.send(server, "POST", "/api/v1/signals", body: #"{"content":"配额用完了","is_flash":false}"#, token: token)
        #expect(quota?["code"] == .int(3008))
        #expect(quota?["msg"] == .string("今日信号已达上限"))
        let (busy, _) = try await Self.send(server, "POST", "/api/v1/ai/analyze-learning-input", body: #"{"session_id":"s","input_text":"BUSY"}"#, token: token)
        #expect(busy.statusCode == 503)
        // The access log has one line per request.
        try server.waitFor(timeout: 2) { out, _ in out.contains("POST /api/v1/ai/analyze-learning-input 503 code=5002") }
        #expect(server.standardOutput.contains("GET /api/v1/signals/inbox 200 code=0"))
        #expect(server.standardOutput.contains("signal.inbox fixture:flash-only"))
    }

    @Test func violationsComeBackAsA400Envelope() async throws {
        let server = try ServerProcess()
        let (response, json) = try await Self.send(server, "POST", "/api/v1/auth/login/phone", body: #"{"phone":"12","device_info":{}}"#)
        #expect(response.statusCode == 400)
        #expect(json?["code"] == .int(1000))
        guard case .array(let violations)? = json?["data"]?["violations"] else {
            Issue.record("no violations")
            return
        }
        #expect(violations.compactMap { $0["pointer"] } == [
            "/body/phone", "/body/device_info/device_id", "/body/device_info/os", "/body/device_info/os_version",
            "/body/device_info/model", "/body/device_info/app_version",
        ].map(JSONValue.string))
    }

    @Test func rawTCPSeesProtocolErrorsLimitsAndKeepAlive() throws {
        let server = try ServerProcess(arguments: ["--max-body", "1KiB", "--quiet"])
        // Malformed HTTP is answered by libmicrohttpd, and the server keeps serving.
        let malformed = [
            ("GET / HTTP/1.1\r\nBad Header\r\n\r\n", "HTTP/1.1 400"),
            ("GET /api/v1/app/start-config HTTP/9.9\r\nHost: x\r\n\r\n", "HTTP/1.1 505"),
            ("GET /x HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n", "HTTP/1.1 400"),
            ("POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n", "HTTP/1.1 400"),
        ]
        for (request, expected) in malformed {
            let connection = try RawConnection(port: server.port)
            connection.send(request)
            let reply = connection.receive { $0.contains("\r\n\r\n") }
            #expect(reply.hasPrefix(expected), "\(request.debugDescription) -> \(reply.prefix(40))")
        }

        // A declared body over the limit is refused without being read.
        let large = try RawConnection(port: server.port)
        let headers = Self.signedHeaders("/api/v1/feedback", token: "any").map { "\($0.key): \($0.value)\r\n" }.joined()
        large.send("POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\n\(headers)Content-Length: 4096\r\n\r\n" + String(repeating: "x", count: 4096))
        let refused = large.receive { $0.contains("}") }
        #expect(refused.hasPrefix("HTTP/1.1 413"))
        #expect(refused.contains(#""error":"body_too_large""#))

        // Two requests on one keep-alive connection, then 404 and 405 answers.
        let alive = try RawConnection(port: server.port)
        let open = "X-Device-Id: d\r\nX-OS: ios\r\nX-App-Version: 1.0.0\r\n"
        alive.send("GET /api/v1/app/start-config HTTP/1.1\r\nHost: x\r\n\(open)\r\nGET /api/v1/nowhere HTTP/1.1\r\nHost: x\r\n\r\nPUT /api/v1/signals/quota HTTP/1.1\r\nHost: x\r\n\r\n")
        let replies = alive.receive { $0.components(separatedBy: "HTTP/1.1 ").count > 3 && $0.hasSuffix("}") }
        let statuses = replies.components(separatedBy: "HTTP/1.1 ").dropFirst().map { String($0.prefix(3)) }
        #expect(statuses == ["200", "404", "405"])
        #expect(replies.contains("Allow: GET, HEAD, OPTIONS"), "the literal /signals/quota, not /signals/{id}: \(replies)")
        // HEAD is answered as GET, with its headers and no body.
        let head = try RawConnection(port: server.port)
        head.send("HEAD /api/v1/app/start-config HTTP/1.1\r\nHost: x\r\n\(open)Connection: close\r\n\r\n")
        let headReply = head.receive()
        #expect(headReply.hasPrefix("HTTP/1.1 200"), "\(headReply)")
        #expect(headReply.hasSuffix("\r\n\r\n"), "no body: \(headReply)")
    }

    @Test func streamedReplyArrivesEventByEvent() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let token = try Self.login(server)
        let body = #"{"messages":[{"role":"user","content":"什么是重入？"}],"stream":true}"#
        let connection = try RawConnection(port: server.port)
        let headers = Self.signedHeaders("/api/v1/ai/chat", body: body, token: token).map { "\($0.key): \($0.value)\r\n" }.joined()
        let sent = Date()
        connection.send("POST /api/v1/ai/chat HTTP/1.1\r\nHost: x\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let chunks = connection.receiveTimed { $0.contains("[DONE]") }
        let all = chunks.map(\.1).joined()
        #expect(all.contains("Content-Type: text/event-stream; charset=utf-8"))
        #expect(all.contains("Transfer-Encoding: chunked"))
        #expect(all.contains(#"data: {"delta":"actor 的方法"}"#))
        let events = chunks.filter { $0.1.contains("data: ") }
        #expect(events.count >= 3, "events arrived together: \(chunks.map(\.1))")
        // Each event waits its 120 ms delay: the last arrives no sooner than 3 × 120 ms after sending.
        if let last = events.last { #expect(last.0.timeIntervalSince(sent) >= 0.36) }
    }

    /// Runs the Python signer (standard library only) with `arguments`: its exit status and what it printed.
    private func pythonSigner(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", Repository.root.appendingPathComponent("Tests/AccordEndToEndTests/Clients/signed_client.py").path] + arguments
        let pipe = Pipe()
        python.standardOutput = pipe
        try python.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        return (python.terminationStatus, output)
    }

    @Test func independentPythonClientIsAccepted() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let (status, output) = try pythonSigner([String(server.port)])
        #expect(status == 0, "\(output)")
        #expect(output.contains("ok   one changed byte is refused with 1001"))
    }

    @Test func thePythonSignerAgreesWithEveryVectorOfTheFile() throws {
        let (status, output) = try pythonSigner(["--vectors", SigningVector.file])
        #expect(status == 0, "\(output)")
        #expect(output.split(separator: "\n").filter { $0.hasPrefix("ok   ") }.count == SigningVector.all.count, "\(output)")
    }

    @Test func hotReloadAppliesGoodEditsAndKeepsServingOnBrokenOnes() async throws {
        let mocks = FileManager.default.temporaryDirectory.appendingPathComponent("accord-reload-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mocks, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mocks) }
        let file = mocks.appendingPathComponent("quota.yaml")
        func write(_ used: String) throws {
            try Data("signal.quota:\n  - {name: q, default: true, data: {daily_limit: 20, used: \(used), resets_at: '2026-12-01T00:00:00Z'}}\n".utf8).write(to: file)
        }
        try write("1")
        let server = try ServerProcess(arguments: ["--quiet"], mocks: mocks.path)
        let token = try Self.login(server)
        #expect(try await Self.send(server, "GET", "/api/v1/signals/quota", token: token).1?["data"]?["used"] == .int(1))

        try write("7")
        try server.waitFor(timeout: 5) { out, _ in out.contains("accord serve: reloaded: 66 endpoints, 1 fixtures") }
        #expect(try Repository.document("docs/serve.md").contains("(`accord serve: reloaded: 66 endpoints, 1 fixtures`"))
        #expect(try await Self.send(server, "GET", "/api/v1/signals/quota", token: token).1?["data"]?["used"] == .int(7))

        try write("lots")
        try server.waitFor(timeout: 5) { _, err in err.contains("still serving the previous version") }
        #expect(server.standardError.contains("quota.yaml:2:60: error: fixture 'q' data /used: expected integer, found a string \"lots\""))
        #expect(try await Self.send(server, "GET", "/api/v1/signals/quota", token: token).1?["data"]?["used"] == .int(7))
    }

    @Test func sigtermLetsARequestInFlightFinishAndExitsZero() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let token = try Self.login(server)
        let connection = try RawConnection(port: server.port)
        let body = #"{"session_id":"s","input_text":"解释一下 actor"}"#   // this fixture answers after 300 ms
        let headers = Self.signedHeaders("/api/v1/ai/analyze-learning-input", body: body, token: token).map { "\($0.key): \($0.value)\r\n" }.joined()
        connection.send("POST /api/v1/ai/analyze-learning-input HTTP/1.1\r\nHost: x\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        Thread.sleep(forTimeInterval: 0.1)
        let (status, seconds) = server.terminate()
        let reply = connection.receive { $0.contains("}}") }
        #expect(reply.hasPrefix("HTTP/1.1 200"))
        #expect(reply.contains(#""model_name":"tutor-large-2026-10""#))
        #expect(status == 0)
        #expect(seconds < 2)
        #expect(server.standardOutput.contains("accord serve: stopped"))
    }

    @Test func brokenContractsRefuseToServe() throws {
        let contracts = FileManager.default.temporaryDirectory.appendingPathComponent("accord-broken-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: contracts, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: contracts) }
        try Data("domain: shop\n---\n".utf8).write(to: contracts.appendingPathComponent("shop.yaml"))
        #expect(throws: ServerProcess.LaunchError.self) { try ServerProcess(contracts: contracts.path) }
    }
}
