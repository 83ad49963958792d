import AccordContract
import AccordJSON
import AccordMock
import AccordMockState
import AccordTesting
import Foundation
import Testing

/// A plain REST API (`Tests/Projects/plain`: no envelope, problem bodies, no signing)
/// served by a real `accord serve`, with each kind of auth.
@Suite(.serialized) struct PlainAPIEndToEndTests {
    /// An auth kind: the `auth:` section (nil: none) and a code table its flows allow.
    struct AuthKind: Sendable, CustomTestStringConvertible {
        var name: String
        var auth: String?
        var codes: String
        /// The credential a request carries: a header, or a query parameter.
        var header: (name: String, value: String)?
        var query: String?

        var testDescription: String { name }

        /// Codes every variant keeps; `401` differs with the kind.
        static let common = """
              403: {name: banned, msg: Account banned, flow: ban, data: BanProblem}
              404: {name: not-found, msg: Not found}
              422: {name: invalid-request, msg: Invalid request}
              429: {name: quota, msg: Too many notes today, flow: alert}
            """
    }

    static let kinds: [AuthKind] = [
        AuthKind(name: "none", auth: nil, codes: """
              401: {name: unauthorized, msg: Unauthorized}
              403: {name: forbidden, msg: Forbidden, data: BanProblem}
              404: {name: not-found, msg: Not found}
              422: {name: invalid-request, msg: Invalid request}
              429: {name: quota, msg: Too many notes today, flow: alert}
            """),
        AuthKind(name: "bearer without refresh", auth: "  login: [session.create]\n  logout: session.delete",
                 codes: "  401: {name: force-logout, msg: Signed out, flow: logout}\n" + AuthKind.common, header: ("Authorization", "")),
        AuthKind(name: "key in a header", auth: "  api_key: {header: X-API-Key, keys: [dev-key-1, dev-key-2]}",
                 codes: "  401: {name: unauthorized, msg: Unauthorized}\n" + AuthKind.common, header: ("X-API-Key", "dev-key-2")),
        AuthKind(name: "key in the query", auth: "  api_key: {query: api_key, keys: [dev-key-1]}",
                 codes: "  401: {name: unauthorized, msg: Unauthorized}\n" + AuthKind.common, query: "api_key=dev-key-1"),
    ]

    /// The answer to a raw request, without its `Date` line.
    static func exchange(_ server: ServerProcess, _ request: String) throws -> String {
        let connection = try RawConnection(port: server.port)
        connection.send(request)
        return connection.receiveResponse().split(separator: "\r\n", omittingEmptySubsequences: false)
            .filter { !$0.hasPrefix("Date: ") }.joined(separator: "\r\n")
    }

    /// Signs in through `session.create`; the issued access and refresh tokens.
    static func signIn(_ server: ServerProcess, email: String = "ada@example.com") throws -> (access: String, refresh: String) {
        let body = #"{"email":"\#(email)","password":"secret"}"#
        let reply = try exchange(server, "POST /v1/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
                                 + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let json = try JSONReader.read(Array(reply[try #require(reply.range(of: "\r\n\r\n")).upperBound...].utf8))
        guard case .string(let access)? = json["access_token"], case .string(let refresh)? = json["refresh_token"] else {
            throw ServerProcess.LaunchError(description: "sign-in failed: \(reply)")
        }
        return (access, refresh)
    }

    static func get(_ server: ServerProcess, _ target: String, headers: [String: String] = [:]) throws -> (status: Int, body: JSONValue?) {
        let lines = headers.map { "\($0.key): \($0.value)\r\n" }.joined()
        let reply = try exchange(server, "GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\(lines)\r\n")
        let status = Int(reply.split(separator: " ").dropFirst().first ?? "") ?? 0
        let body = reply.range(of: "\r\n\r\n").flatMap { try? JSONReader.read(Array(reply[$0.upperBound...].utf8)) }
        return (status, body)
    }

    @Test func theProjectAndEveryAuthKindLintClean() throws {
        let project = MockProject.load(contracts: Repository.plainContracts, mocks: Repository.plainMocks)
        #expect(project.diagnostics.filter { $0.severity == .error || $0.severity == .warning }.map(\.description) == [])
        for kind in Self.kinds {
            let contracts = try Repository.plainContracts(auth: kind.auth, codes: kind.codes)
            let outcome = MockProject.load(contracts: contracts, mocks: Repository.plainMocks)
            #expect(outcome.diagnostics.filter { $0.severity == .error }.map(\.description) == [], "\(kind.name)")
        }
    }

    @Test func aSuccessIsTheBareBodyAndARefusalAProblemDocument() throws {
        let server = try ServerProcess(mocks: Repository.plainMocks, contracts: Repository.plainContracts)
        #expect(try Self.exchange(server, "GET /v1/status HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n") == """
            HTTP/1.1 200 OK\r
            Connection: close\r
            Content-Type: application/json; charset=utf-8\r
            Content-Length: 11\r
            \r
            {"ok":true}
            """)
        let token = try Self.signIn(server).access
        let body = #"{"title":"","body":"x","color":"red"}"#
        let refused = try Self.exchange(server, "POST /v1/notes HTTP/1.1\r\nHost: x\r\nConnection: close\r\nAuthorization: Bearer \(token)\r\n"
                                        + "Content-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
        let problem = #"{"type":"about:blank","title":"Invalid request","status":422,"detail":"2 problems in the request","error":"invalid_request","#
            + #""violations":[{"pointer":"/body/title","expected":"at least 1 character","actual":"a string \"\" (0 characters)","#
            + #""message":"expected at least 1 character, found a string \"\" (0 characters)"},"#
            + #"{"pointer":"/body/color","expected":"one of the members title, body","actual":"member 'color'","message":"unknown member 'color'"}]}"#
        #expect(refused == "HTTP/1.1 422 Unprocessable Content\r\nConnection: close\r\nContent-Type: application/problem+json\r\n"
                + "Content-Length: \(problem.utf8.count)\r\n\r\n\(problem)")
    }

    @Test func notFoundIsAProblemFromTheFixtureOrTheRouter() throws {
        let server = try ServerProcess(mocks: Repository.plainMocks, contracts: Repository.plainContracts)
        let auth = ["Authorization": "Bearer \(try Self.signIn(server).access)"]
        let missing = try Self.get(server, "/v1/notes/n_missing", headers: auth)
        #expect(missing.status == 404)
        #expect(missing.body == .object([.init("type", .string("about:blank")), .init("title", .string("Not found")), .init("status", .int(404)),
                                         .init("detail", .string("no note n_missing"))]))
        let found = try Self.get(server, "/v1/notes/n_42", headers: auth)
        #expect(found.status == 200)
        #expect(found.body?["id"] == .string("n_42"))
        let route = try Self.get(server, "/v1/notebooks", headers: auth)
        #expect(route.status == 404)
        #expect(route.body?["error"] == .string("route_not_found"))
        #expect(route.body?["status"] == .int(404))
    }

    @Test func tokenExpiryRefreshBanAndLogoutWorkByStatus() throws {
        let server = try ServerProcess(mocks: Repository.plainMocks, contracts: Repository.plainContracts)
        let (access, refresh) = try Self.signIn(server)
        let expired = try Self.get(server, "/v1/notes", headers: ["Authorization": "Bearer \(access)", "X-Accord-Inject": "token-expired"])
        #expect(expired.status == 401)
        #expect(expired.body?["type"] == .string("https://notes.example.com/problems/token-expired"))
        let body = #"{"refresh_token":"\#(refresh)"}"#
        let request = "POST /v1/sessions/refresh HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)"
        let rotated = try Self.exchange(server, request)
        #expect(rotated.hasPrefix("HTTP/1.1 200 OK"))
        #expect(rotated.contains(#""access_token":"at_"#) && !rotated.contains(access))
        // The old access token is answered as expired (the client retries it with the new one); the old refresh token ends the session.
        let stale = try Self.get(server, "/v1/notes", headers: ["Authorization": "Bearer \(access)"])
        #expect(stale.status == 401)
        #expect(stale.body?["type"] == .string("https://notes.example.com/problems/token-expired"))
        let reused = try Self.exchange(server, request)
        #expect(reused.hasPrefix("HTTP/1.1 401 Unauthorized"))
        #expect(reused.contains(#""type":"https://notes.example.com/problems/refresh-invalid""#))
        let banned = try Self.exchange(server, "POST /v1/sessions HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n"
                                       + "Content-Length: 46\r\n\r\n" + #"{"email":"banned@example.com","password":"xx"}"#)
        #expect(banned.hasPrefix("HTTP/1.1 403 Forbidden"))
        #expect(banned.hasSuffix(#"{"type":"about:blank","title":"Account banned","status":403,"ban_info":{"reason":"spam"}}"#))
        let missing = try Self.get(server, "/v1/notes")
        #expect(missing.status == 401)
        #expect(missing.body?["type"] == .string("about:blank"))
        #expect(missing.body?["title"] == .string("Signed out"))
    }

    /// `accord verify` of a plain backend (here `accord serve` of it) signs nothing, signs in
    /// for a bearer token, and sends an API key where the contract puts it.
    @Test(arguments: [nil] + kinds.filter { $0.query != nil }) func verifyPassesAgainstAPlainBackend(_ kind: AuthKind?) throws {
        let contracts = try kind.map { try Repository.plainContracts(auth: $0.auth, codes: $0.codes) } ?? Repository.plainContracts
        let server = try ServerProcess(arguments: ["--quiet", "--no-reload"], mocks: Repository.plainMocks, contracts: contracts)
        let run = try ExternalCommand.run(ServerProcess.executable.path, ["verify", "--contracts", contracts, "--base-url", server.baseURL + "/v1",
                                                                        "--allow-writes", "--quiet"])
        #expect(run.text == "accord verify: 5 passed, 0 failed, 3 skipped against \(server.baseURL)/v1\n")
        #expect(run.status == 0)
    }

    @Test(arguments: kinds) func eachAuthKindIsEnforced(_ kind: AuthKind) throws {
        let contracts = try Repository.plainContracts(auth: kind.auth, codes: kind.codes)
        let server = try ServerProcess(mocks: Repository.plainMocks, contracts: contracts)
        #expect(try Self.get(server, "/v1/status").status == 200, "a public endpoint needs no credential")
        let bare = try Self.get(server, "/v1/notes")
        #expect(bare.status == (kind.auth == nil ? 200 : 401), "\(bare)")
        guard kind.auth != nil else { return }
        #expect(bare.body?["status"] == .int(401))
        var headers: [String: String] = [:]
        if let header = kind.header {
            headers[header.name] = header.name == "Authorization" ? "Bearer \(try Self.signIn(server).access)" : header.value
            let wrong = try Self.get(server, "/v1/notes", headers: [header.name: header.name == "Authorization" ? "Bearer at_forged" : "dev-key-9"])
            #expect(wrong.status == 401)
        }
        let target = "/v1/notes" + (kind.query.map { "?\($0)&limit=5" } ?? "?limit=5")
        let allowed = try Self.get(server, target, headers: headers)
        #expect(allowed.status == 200, "\(allowed)")
        #expect(allowed.body?["items"]?.value(at: "/0/id") == .string("n_1"))
        if kind.query != nil {
            #expect(try Self.get(server, "/v1/notes?api_key=dev-key-9").status == 401)
        }
    }
}
