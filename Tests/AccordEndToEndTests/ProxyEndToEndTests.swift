import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordMockState
import AccordServer
import AccordSync
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TongbanAPI

/// `accord proxy` between a client and a real upstream: a second `accord serve`, or a
/// stand-in started here that records what it received and can drift, hang or refuse.
@Suite(.serialized) struct ProxyEndToEndTests {
    /// An upstream in this process: the repository's mock (signatures unchecked: the
    /// proxy checks them) that keeps every request and answer, and rewrites answers.
    final class StandIn: Sendable {
        let server: HTTPServer
        private let exchanges = Locked<[(request: MockRequest, response: MockResponse)]>([])

        /// - Parameter rewrite: changes the mock's answer to a request (a drift, a delay).
        init(rewrite: @escaping @Sendable (MockRequest, inout MockResponse) -> Void = { _, _ in }) throws {
            let project = Repository.project
            let engine = MockEngine(contract: project.contract, fixtures: project.fixtures, collections: project.collections, options: MockOptions(verifiesSignatures: false),
                                    state: MockState(nonceTTLSeconds: 600))
            let exchanges = self.exchanges
            server = HTTPServer(configuration: HTTPServer.Configuration(port: 0, threads: 2), handler: { request in
                var response = engine.handle(request)
                rewrite(request, &response)
                exchanges.withLock { $0.append((request, response)) }
                return response
            }, log: { _ in })
            try server.start()
        }

        deinit { server.stop(grace: .milliseconds(100)) }

        var url: String { "http://127.0.0.1:\(server.port)" }
        var received: [(request: MockRequest, response: MockResponse)] { exchanges.withLock { $0 } }
    }

    /// A raw HTTP/1.1 request with the contract's signing and service headers.
    private func signed(_ method: String, _ target: String, body: String? = nil, token: String? = nil, headers extra: [String: String] = [:]) -> String {
        var headers = ServeEndToEndTests.signedHeaders(target, body: body, token: token).merging(extra) { $1 }
        if body == nil { headers["Content-Type"] = nil }
        let lines = headers.sorted { $0.key < $1.key }.map { "\($0.key): \($0.value)\r\n" }.joined()
        let length = body.map { "Content-Length: \($0.utf8.count)\r\n" } ?? ""
        return "\(method) \(target) HTTP/1.1\r\nHost: app.example\r\nConnection: close\r\n\(lines)\(length)\r\n\(body ?? "")"
    }

    /// Sends `raw` and reads the whole answer (the proxy closes after it).
    private func exchange(_ port: UInt16, _ raw: String) throws -> (head: String, headers: [String: String], body: String) {
        let connection = try RawConnection(port: port, timeout: 10)
        connection.send(raw)
        let reply = connection.receive()
        let parts = reply.components(separatedBy: "\r\n\r\n")
        let head = parts[0]
        var headers: [String: String] = [:]
        for line in head.split(separator: "\r\n").dropFirst() {
            let pair = line.split(separator: ":", maxSplits: 1)
            headers[pair[0].lowercased()] = pair[1].trimmingCharacters(in: .whitespaces)
        }
        let body = parts.dropFirst().joined(separator: "\r\n\r\n")
        return (String(head.split(separator: "\r\n").first ?? ""), headers, headers["transfer-encoding"] == "chunked" ? dechunked(body) : body)
    }

    /// A chunked body's content: where the chunks fall depends on timing, not on the answer.
    private func dechunked(_ body: String) -> String {
        var bytes = Array(body.utf8)[...]
        var content: [UInt8] = []
        while let lineEnd = bytes.firstIndex(of: 0x0D), let size = Int(String(decoding: bytes[..<lineEnd], as: UTF8.self), radix: 16), size > 0 {
            let start = lineEnd + 2
            content += bytes[start..<min(start + size, bytes.endIndex)]
            bytes = bytes[min(start + size + 2, bytes.endIndex)...]
        }
        return String(decoding: content, as: UTF8.self)
    }

    /// The `msg` of an envelope.
    private func message(_ body: String) throws -> String {
        guard case .string(let text)? = try JSONReader.read(Array(body.utf8))["msg"] else { return "" }
        return text
    }

    /// Logs in through `port` and returns the access token.
    private func login(_ port: UInt16, session: String? = nil) throws -> String {
        let answer = try exchange(port, signed("POST", "/api/v1/auth/login/phone", body: ServeEndToEndTests.loginBody,
                                               headers: session.map { ["X-Accord-Session": $0] } ?? [:]))
        guard case .string(let token)? = try JSONReader.read(Array(answer.body.utf8)).value(at: "/data/access_token") else {
            throw ServerProcess.LaunchError(description: "login failed: \(answer)")
        }
        return token
    }

    private func getJSON(_ url: String) async throws -> JSONValue {
        let (data, _) = try await URLSession.shared.data(from: URL(string: url)!)
        return try JSONReader.read(Array(data))
    }

    private func post(_ url: String, _ body: String) async throws -> Int {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = "POST"
        request.httpBody = Data(body.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        let (_, response) = try await URLSession.shared.data(for: request)
        return (response as? HTTPURLResponse)?.statusCode ?? 0
    }

    // MARK: Passing through

    @Test func validTrafficPassesByteIdenticalBothWays() throws {
        let upstream = try StandIn()
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream.url, "--quiet", "--annotate"])
        // docs/proxy.md shows the banner's second line as this proxy prints it.
        let banner = proxy.standardOutput.split(separator: "\n").dropFirst().first.map(String.init) ?? ""
        #expect(banner.hasPrefix("  66 endpoints, mode report, annotating"), "\(proxy.standardOutput)")
        #expect(try Repository.document("docs/proxy.md").contains("\n" + banner + "\n"))
        let token = try login(proxy.port)
        let body = #"{"content":"周末 爬山 \"带水\" \\ / 😀","tags":["a b","c&d=e"],"is_flash":false}"#
        let target = "/api/v1/signals"
        let sent = signed("POST", target, body: body, token: token, headers: ["X-Trace": "t-1"])
        let answer = try exchange(proxy.port, sent)
        let (request, response) = try #require(upstream.received.last)
        // Request: target, body and every end-to-end header as sent.
        #expect(request.target == target)
        #expect(request.body == Array(body.utf8))
        let sentHeaders = sent.components(separatedBy: "\r\n\r\n")[0].split(separator: "\r\n").dropFirst().map { line in
            let pair = line.split(separator: ":", maxSplits: 1)
            return (pair[0].lowercased(), pair[1].trimmingCharacters(in: .whitespaces))
        }
        for (name, value) in sentHeaders where !["host", "connection"].contains(name) {
            #expect(request.headers[name] == value, "header \(name)")
        }
        #expect(request.headers["host"] == "127.0.0.1:\(upstream.server.port)")
        #expect(request.headers["via"] == "1.1 accord")
        #expect(request.headers["connection"] != "close")
        // Answer: the upstream's bytes and headers, plus the annotation.
        #expect(answer.head == "HTTP/1.1 200 OK")
        #expect(Array(answer.body.utf8) == response.bodyBytes)
        #expect(answer.headers["content-type"] == response.header("content-type"))
        #expect(answer.headers["x-accord-violations"] == "0")
        // A query byte for byte, percent-escapes and all.
        let query = "/api/v1/signals/inbox?limit=20&filter=flash&x=%E4%B8%AD%2B+%26"
        let inbox = try exchange(proxy.port, signed("GET", query, token: token))
        #expect(upstream.received.last?.request.target == query)
        #expect(Array(inbox.body.utf8) == upstream.received.last?.response.bodyBytes)
    }

    @Test func theGeneratedClientWorksThroughTheProxy() async throws {
        let upstream = try ServerProcess(arguments: ["--quiet"])
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream.baseURL, "--quiet"])
        let api = APIClient(configuration: ClientConfiguration(serverURL: URL(string: proxy.baseURL)!, appKey: "dev_app_key",
                                                               appSecret: "dev_app_secret", deviceID: "through-proxy", os: "ios", appVersion: "1.2.0"),
                            storage: InMemoryTokenStorage())
        let session = try await api.send(API.auth.loginPhone(AuthLoginPhoneRequest(
            phone: "13800138000", code: "123456",
            deviceInfo: DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0"))))
        #expect(session.user.uid == 10086)
        let published = try await api.send(API.signal.publish(SignalPublishRequest(content: "经过代理 & 签名 ✓", tags: ["旅行"], isFlash: false)))
        #expect(published.content == "经过代理 & 签名 ✓")
        let inbox = try await api.send(API.signal.inbox(limit: 5, filter: .flash))
        #expect(inbox.items.first?.id == "sg_flash_1")
        let report = try await getJSON(proxy.baseURL + "/__accord/report")
        #expect(report.value(at: "/summary/requests") == .int(3))
        #expect(report.value(at: "/summary/violations") == .int(0))
        // The upstream checked the same signatures and saw every call.
        let journal = try await getJSON(upstream.baseURL + "/__accord/requests")
        guard case .array(let entries)? = journal["requests"] else { Issue.record("no journal"); return }
        #expect(entries.map { $0["verdict"] } == [.string("ok"), .string("ok"), .string("ok")])
    }

    @Test func streamedEventsArriveBeforeTheStreamEnds() throws {
        let mocks = try Repository.mocksStreaming(gap: .seconds(1))
        defer { try? FileManager.default.removeItem(atPath: mocks) }
        let upstream = try ServerProcess(arguments: ["--quiet"], mocks: mocks)
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream.baseURL, "--quiet"])
        let token = try login(proxy.port)
        let body = #"{"session_id":"ss_01","messages":[{"role":"user","content":"讲讲 actor"}],"stream":true}"#
        let connection = try RawConnection(port: proxy.port, timeout: 10)
        connection.send(signed("POST", "/api/v1/ai/chat", body: body, token: token))
        let chunks = connection.receiveTimed { $0.contains("[DONE]") }
        let text = chunks.map(\.1).joined()
        #expect(text.contains("text/event-stream"))
        let first = try #require(chunks.first { $0.1.contains("actor 的方法") }?.0)
        let last = try #require(chunks.last?.0)
        // Three events a second apart, then [DONE]: the first is passed on as it comes.
        #expect(last.timeIntervalSince(first) >= 1, "first event \(last.timeIntervalSince(first)) s before the end")
    }

    // MARK: Drift

    @Test func eachDriftIsReportedOnItsSideWithItsPointer() async throws {
        let upstream = try StandIn { request, response in
            var text = String(decoding: response.bodyBytes, as: UTF8.self)
            if request.path.hasSuffix("/users/me") { text = text.replacingOccurrences(of: "\"nickname\"", with: "\"nick_name\"") }
            if request.path.hasSuffix("/signals/quota") { text = text.replacingOccurrences(of: "\"daily_limit\":20", with: "\"daily_limit\":\"20\"") }
            if request.path.hasSuffix("/signals/inbox") { text = text.replacingOccurrences(of: "{\"code\":0,", with: "{\"code\":4242,") }
            response.body = .bytes(Array(text.utf8))
        }
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream.url, "--quiet", "--annotate"])
        let token = try login(proxy.port)
        let me = try exchange(proxy.port, signed("GET", "/api/v1/users/me", token: token))
        #expect(me.headers["x-accord-violations"] == "2")
        #expect(me.body.contains("\"nick_name\"")) // returned unchanged
        #expect(try exchange(proxy.port, signed("GET", "/api/v1/signals/quota", token: token)).headers["x-accord-violations"] == "1")
        #expect(try exchange(proxy.port, signed("GET", "/api/v1/signals/inbox?limit=5", token: token)).headers["x-accord-violations"] == "1")
        // The app's drift: a renamed member, forwarded in report mode and refused by the upstream.
        let bad = try exchange(proxy.port, signed("POST", "/api/v1/signals", body: #"{"contents":"hi","is_flash":false}"#, token: token))
        #expect(bad.headers["x-accord-violations"] == "2")
        #expect(upstream.received.last?.request.path == "/api/v1/signals")

        let report = try await getJSON(proxy.baseURL + "/__accord/report")
        func failures(_ id: String) -> [JSONValue] {
            guard case .array(let endpoints)? = report["endpoints"],
                  case .array(let list)? = endpoints.first(where: { $0["id"] == .string(id) })?["failures"] else { return [] }
            return list
        }
        func pointers(_ failure: JSONValue?) -> [String] {
            guard case .array(let list)? = failure?.value(at: "/details/violations") else { return [] }
            return list.compactMap { if case .string(let text)? = $0["pointer"] { text } else { nil } }
        }
        let meFailure = failures("user.me").first
        #expect(meFailure?["side"] == .string("response"))
        #expect(pointers(meFailure) == ["/data/nickname", "/data/nick_name"])
        let quotaFailure = failures("signal.quota").first
        #expect(quotaFailure?["side"] == .string("response"))
        #expect(pointers(quotaFailure) == ["/data/daily_limit"])
        #expect(failures("signal.inbox").first?["message"] == .string("code 4242 is not declared for 'signal.inbox' (it declares 0)"))
        let publishFailure = failures("signal.publish").first
        #expect(publishFailure?["side"] == .string("request"))
        #expect(pointers(publishFailure) == ["/body/content", "/body/contents"])
        #expect(report.value(at: "/summary/violations") == .int(4))
        // The journal says the same, each problem with its side.
        let journal = try await getJSON(proxy.baseURL + "/__accord/requests?limit=2")
        #expect(journal.value(at: "/requests/0/verdict") == .string("drift"))
        #expect(journal.value(at: "/requests/0/problems/0/side") == .string("response"))
        #expect(journal.value(at: "/requests/1/verdict") == .string("invalid"))
        #expect(journal.value(at: "/requests/1/problems/0") == .object([
            .init("side", .string("request")), .init("pointer", .string("/body/content")), .init("message", .string("missing required member 'content'")),
        ]))
    }

    @Test func strictModeRefusesABadRequestBeforeTheUpstreamSeesIt() async throws {
        let upstream = try ServerProcess(arguments: ["--quiet"])
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream.baseURL, "--quiet", "--mode", "strict"])
        let bad = try exchange(proxy.port, signed("POST", "/api/v1/signals", body: #"{"contents":"hi","is_flash":false}"#,
                                                  token: "at_not_checked_here"))
        #expect(bad.head == "HTTP/1.1 400 Bad Request")
        let refusal = try JSONReader.read(Array(bad.body.utf8))
        #expect(refusal["code"] == .int(1000))
        #expect(refusal.value(at: "/data/violations/0/pointer") == .string("/body/content"))
        let tampered = ServeEndToEndTests.signedHeaders("/api/v1/signals/quota", token: "x")["X-Sign"]!
        let badSign = try exchange(proxy.port, signed("GET", "/api/v1/signals/quota", token: "x", headers: ["X-Sign": String(tampered.reversed())]))
        #expect(try JSONReader.read(Array(badSign.body.utf8))["code"] == .int(1001))
        let journal = try await getJSON(upstream.baseURL + "/__accord/requests")
        #expect(journal["requests"] == .array([]))
        // A good request still goes through.
        _ = try login(proxy.port)
        let after = try await getJSON(upstream.baseURL + "/__accord/requests")
        #expect(after.value(at: "/requests/0/endpoint") == .string("auth.login-phone"))
    }

    @Test func anInjectedBanForOneSessionLeavesAnotherAlone() async throws {
        let upstream = try ServerProcess(arguments: ["--quiet"])
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream.baseURL, "--quiet"])
        let token = try login(proxy.port)
        let rule = #"{"match":{"endpoint":"signal.quota","session":"A"},"respond":"banned"}"#
        #expect(try await post(proxy.baseURL + "/__accord/rules", rule) == 201)
        let banned = try exchange(proxy.port, signed("GET", "/api/v1/signals/quota", token: token, headers: ["X-Accord-Session": "A"]))
        let envelope = try JSONReader.read(Array(banned.body.utf8))
        #expect(envelope["code"] == .int(1008))
        #expect(envelope.value(at: "/data/ban_info/reason") != nil)
        let other = try exchange(proxy.port, signed("GET", "/api/v1/signals/quota", token: token, headers: ["X-Accord-Session": "B"]))
        #expect(try JSONReader.read(Array(other.body.utf8))["code"] == .int(0))
        // The upstream saw the login and B's call, without Accord's steering header.
        let journal = try await getJSON(upstream.baseURL + "/__accord/requests")
        guard case .array(let entries)? = journal["requests"] else { Issue.record("no journal"); return }
        #expect(entries.map { $0["endpoint"] } == [.string("auth.login-phone"), .string("signal.quota")])
        #expect(entries.last?.value(at: "/headers/x-accord-session") == nil)
        // An injected fault spoils the upstream's real answer.
        let unavailable = try exchange(proxy.port, signed("GET", "/api/v1/signals/quota", token: token, headers: ["X-Accord-Inject": "503"]))
        #expect(unavailable.head == "HTTP/1.1 503 Service Unavailable")
        let cut = try exchange(proxy.port, signed("GET", "/api/v1/signals/quota", token: token, headers: ["X-Accord-Inject": "malformed"]))
        #expect(cut.head == "HTTP/1.1 200 OK")
        #expect((try? JSONReader.read(Array(cut.body.utf8))) == nil)
        #expect(cut.body.hasPrefix("{\"code\":0,"))
    }

    // MARK: Upstream failures

    @Test func aRefusedConnectionIsA502WithinTheTimeout() throws {
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", "http://127.0.0.1:1", "--quiet", "--upstream-timeout", "500ms",
                                                                    "--no-sign"])
        let start = Date()
        let answer = try exchange(proxy.port, signed("GET", "/api/v1/app/start-config"))
        #expect(Date().timeIntervalSince(start) < 2)
        #expect(answer.head == "HTTP/1.1 502 Bad Gateway")
        let envelope = try JSONReader.read(Array(answer.body.utf8))
        #expect(envelope.value(at: "/data/error") == .string("upstream_unreachable"))
        #expect(envelope["msg"] == .string("the upstream http://127.0.0.1:1 did not answer: GET http://127.0.0.1:1/api/v1/app/start-config: Couldn't connect to server"))
    }

    @Test func aHangingUpstreamIsA504AtTheTimeout() throws {
        let upstream = try StandIn { request, response in
            if request.path.hasSuffix("/signals/quota") { response.delayMilliseconds = 5_000 }
        }
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream.url, "--quiet", "--upstream-timeout", "500ms", "--no-sign"])
        let start = Date()
        let answer = try exchange(proxy.port, signed("GET", "/api/v1/signals/quota", token: "t"))
        let elapsed = Date().timeIntervalSince(start)
        #expect(elapsed >= 0.45 && elapsed < 2, "answered after \(elapsed) s")
        #expect(answer.head == "HTTP/1.1 504 Gateway Timeout")
        #expect(try JSONReader.read(Array(answer.body.utf8)).value(at: "/data/error") == .string("upstream_timeout"))
    }

    @Test func badUpstreamsAreClearErrorsNotCrashes() async throws {
        // A URL that does not parse, and a scheme that is not HTTP: refused at start.
        for (upstream, message) in [("http//nowhere", "is not a URL"), ("ftp://127.0.0.1", "must be http:// or https://, found ftp://")] {
            let process = Process()
            process.executableURL = ServerProcess.executable
            process.arguments = ["proxy", "--upstream", upstream, "--contracts", Repository.contracts]
            let errors = Pipe()
            process.standardError = errors
            process.standardOutput = Pipe()
            try process.run()
            let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            #expect(process.terminationStatus == 2)
            #expect(text.contains(message), "\(text)")
        }
        // A server that does not speak HTTP, and one whose head never ends.
        let garbage = RawReplyServer(reply: "SSH-2.0-OpenSSH_9.2\r\nnot http at all\r\n\r\n")
        let flooding = RawReplyServer(reply: "HTTP/1.1 200 OK\r\n" + (0..<4_000).map { "X-Flood-\($0): \(String(repeating: "f", count: 40))\r\n" }.joined())
        let flooded = try ServerProcess(command: "proxy", arguments: ["--upstream", "http://127.0.0.1:\(flooding.port)", "--quiet", "--no-sign"])
        let flood = try exchange(flooded.port, signed("GET", "/api/v1/app/start-config"))
        #expect(flood.head == "HTTP/1.1 502 Bad Gateway")
        #expect(try message(flood.body).hasSuffix("the answer's header lines are larger than 16384 bytes"), "\(flood)")
        let notHTTP = try ServerProcess(command: "proxy", arguments: ["--upstream", "http://127.0.0.1:\(garbage.port)", "--quiet", "--no-sign"])
        let answer = try exchange(notHTTP.port, signed("GET", "/api/v1/app/start-config"))
        #expect(answer.head == "HTTP/1.1 502 Bad Gateway")
        let notHTTPEnvelope = try JSONReader.read(Array(answer.body.utf8))
        #expect(notHTTPEnvelope.value(at: "/data/error") == .string("upstream_failed"))
        #expect(notHTTPEnvelope["msg"] == .string("the upstream http://127.0.0.1:\(garbage.port) did not answer: GET http://127.0.0.1:\(garbage.port)"
                                                  + "/api/v1/app/start-config: the server does not speak HTTP (it answered without a status line)"))
        // An answer over the limit, and a redirect loop (passed back, not followed, and reported).
        let big = try StandIn { request, response in
            if request.path.hasSuffix("/signals/quota") { response.body = .bytes(Array(repeating: UInt8(ascii: " "), count: 8_192) + response.bodyBytes) }
            if request.path.hasSuffix("/app/start-config") {
                response.status = 302
                response.headers = [("Location", request.target)]
                response.body = .bytes([])
            }
        }
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", big.url, "--quiet", "--no-sign", "--max-answer", "4KiB"])
        let large = try exchange(proxy.port, signed("GET", "/api/v1/signals/quota", token: "t"))
        #expect(large.head == "HTTP/1.1 502 Bad Gateway")
        #expect(try JSONReader.read(Array(large.body.utf8)).value(at: "/data/error") == .string("upstream_too_large"))
        let redirect = try exchange(proxy.port, signed("GET", "/api/v1/app/start-config"))
        #expect(redirect.head == "HTTP/1.1 302 Found")
        #expect(redirect.headers["location"] == "/api/v1/app/start-config")
        let report = try await getJSON(proxy.baseURL + "/__accord/report")
        guard case .array(let endpoints)? = report["endpoints"] else { Issue.record("no report"); return }
        let config = endpoints.first { $0["id"] == .string("app.start-config") }
        #expect(config?.value(at: "/failures/0/message") == .string("HTTP 302 with an empty body; the contract answers with a JSON envelope"))
    }

    @Test func anHTTPSUpstreamIsTrustedThroughItsCAFileOnly() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-tls-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let openssl = Process()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/openssl")
        openssl.arguments = ["req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:P-256", "-nodes", "-days", "2", "-subj", "/CN=127.0.0.1",
                             "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", directory + "/key.pem", "-out", directory + "/cert.pem"]
        openssl.standardError = Pipe()
        try openssl.run()
        openssl.waitUntilExit()
        try #require(openssl.terminationStatus == 0)
        // The mock's own answer, served over TLS by Python's http.server.
        let config = try StandIn()
        let answer = try exchange(config.server.port, signed("GET", "/api/v1/app/start-config")).body
        try Data(answer.utf8).write(to: URL(fileURLWithPath: directory + "/answer.json"))
        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", """
            import http.server, ssl, sys
            body = open(sys.argv[1] + "/answer.json", "rb").read()
            class Handler(http.server.BaseHTTPRequestHandler):
                protocol_version = "HTTP/1.1"
                def do_GET(self):
                    self.send_response(200)
                    self.send_header("Content-Type", "application/json; charset=utf-8")
                    self.send_header("Content-Length", str(len(body)))
                    self.end_headers()
                    self.wfile.write(body)
                def log_message(self, *arguments):
                    pass
            server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
            context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
            context.load_cert_chain(sys.argv[1] + "/cert.pem", sys.argv[1] + "/key.pem")
            server.socket = context.wrap_socket(server.socket, server_side=True)
            print(server.server_address[1], flush=True)
            server.serve_forever()
            """, directory]
        let output = Pipe()
        python.standardOutput = output
        python.standardError = FileHandle.nullDevice
        try python.run()
        // SIGKILL: a child of a test thread starts with SIGTERM blocked.
        defer {
            kill(python.processIdentifier, SIGKILL)
            python.waitUntilExit()
        }
        let portLine = String(decoding: output.fileHandleForReading.availableData, as: UTF8.self)
        let port = try #require(UInt16(portLine.trimmingCharacters(in: .whitespacesAndNewlines)))
        let upstream = "https://127.0.0.1:\(port)"
        let trusted = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream, "--upstream-ca", directory + "/cert.pem", "--quiet",
                                                                      "--annotate"])
        let through = try exchange(trusted.port, signed("GET", "/api/v1/app/start-config"))
        #expect(through.head == "HTTP/1.1 200 OK")
        #expect(through.body == answer)
        #expect(through.headers["x-accord-violations"] == "0")
        // With the system's CAs only, the self-signed upstream is refused, and said why.
        let untrusted = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream, "--quiet"])
        let refused = try exchange(untrusted.port, signed("GET", "/api/v1/app/start-config"))
        #expect(refused.head == "HTTP/1.1 502 Bad Gateway")
        let envelope = try JSONReader.read(Array(refused.body.utf8))
        #expect(envelope.value(at: "/data/error") == .string("upstream_failed"))
        #expect(try message(refused.body).contains("certificate"), "\(envelope)")
    }

    // MARK: Recording

    @Test func aRecordedSessionReplaysOffline() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-recorded-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let upstream = try ServerProcess(arguments: ["--quiet"])
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream.baseURL, "--quiet", "--record-fixtures", directory])
        let calls: [(String, String, String?)] = [
            ("GET", "/api/v1/signals/inbox?limit=20&filter=flash", nil),
            ("GET", "/api/v1/signals/quota", nil),
            ("GET", "/api/v1/users/me", nil),
            ("POST", "/api/v1/ai/chat", #"{"session_id":"ss_01","messages":[{"role":"user","content":"hi"}],"stream":true}"#),
        ]
        func session(_ port: UInt16) throws -> [String] {
            let token = try login(port)
            return try calls.map { method, target, body in try exchange(port, signed(method, target, body: body, token: token)).body }
        }
        let recorded = try session(proxy.port)
        let loginFile = try String(contentsOfFile: directory + "/auth.login-phone.yaml", encoding: .utf8)
        #expect(loginFile.contains("access_token: '{{issued.access_token}}'"))
        #expect(!loginFile.contains("at_"))
        // What it wrote passes lint and replays the same answers.
        let lint = Process()
        lint.executableURL = ServerProcess.executable
        lint.arguments = ["lint", "--contracts", Repository.contracts, "--mocks", directory]
        lint.standardOutput = Pipe()
        try lint.run()
        lint.waitUntilExit()
        #expect(lint.terminationStatus == 0)
        let replay = try ServerProcess(arguments: ["--quiet", "--no-reload"], mocks: directory)
        let replayed = try session(replay.port)
        #expect(replayed == recorded)
    }
}

/// A TCP listener that answers every connection with the same bytes, then closes it.
final class RawReplyServer: Sendable {
    private let listener = LoopbackListener()
    private let accepted = Locked(0)

    var port: UInt16 { listener.port }
    /// How many connections it took.
    var connections: Int { accepted.withLock { $0 } }

    init(reply: String) {
        let bytes = Array(reply.utf8)
        let socket = listener.socket
        let accepted = accepted
        Thread.detachNewThread {
            while true {
                let client = accept(socket, nil, nil)
                guard client >= 0 else { return }
                accepted.withLock { $0 += 1 }
                _ = bytes.withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                close(client)
            }
        }
    }

    deinit {
        listener.close()
    }
}
