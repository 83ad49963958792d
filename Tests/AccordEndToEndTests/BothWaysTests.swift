import AccordJSON
import AccordTesting
import Testing

/// The main flows, each one test body run twice: against the engine in this process and
/// against a real `accord serve` over a loopback socket. They must see the same answers.
@Suite struct BothWaysTests {
    static let login = #"{"phone":"13800138000","code":"123456","device_info":{"device_id":"D-1","os":"ios","os_version":"26.1","model":"iPhone","app_version":"1.2.0"}}"#

    /// Logs in and returns the access and refresh tokens the server issued.
    func logIn(_ backend: Backend, session: String) throws -> (access: String, refresh: String) {
        let answer = try backend.send("POST", "/api/v1/auth/login/phone", body: Self.login, headers: [("X-Accord-Session", session)])
        #expect(answer.status == 200)
        #expect(answer.code == 0, "\(answer.body)")
        guard case .string(let access)? = answer.json?["data"]?["access_token"], case .string(let refresh)? = answer.json?["data"]?["refresh_token"] else {
            Issue.record("no tokens in \(answer.body)")
            return ("", "")
        }
        return (access, refresh)
    }

    @Test(arguments: BackendMode.allCases)
    func aLoginsTokensOpenTheInboxAndALogoutClosesIt(_ mode: BackendMode) throws {
        let backend = try Backend(mode)
        let tokens = try logIn(backend, session: "both-logout")
        #expect(tokens.access.hasPrefix("at_"))
        let inbox = try backend.send("GET", "/api/v1/signals/inbox?limit=20", bearer: tokens.access)
        #expect(inbox.status == 200)
        #expect(inbox.code == 0)
        #expect(inbox.header("content-type") == "application/json; charset=utf-8")
        #expect(try backend.send("POST", "/api/v1/auth/logout", body: #"{"device_id":"D-1"}"#, bearer: tokens.access).code == 0)
        let after = try backend.send("GET", "/api/v1/signals/inbox?limit=20", bearer: tokens.access)
        #expect(after.code == 1006, "a revoked token ends the session: \(after.body)")
    }

    @Test(arguments: BackendMode.allCases)
    func aRefreshRotatesThePairAndRetiresTheOldOne(_ mode: BackendMode) throws {
        let backend = try Backend(mode)
        let tokens = try logIn(backend, session: "both-refresh")
        let body = #"{"refresh_token":"\#(tokens.refresh)"}"#
        let rotated = try backend.send("POST", "/api/v1/auth/token/refresh", body: body)
        #expect(rotated.code == 0, "\(rotated.body)")
        guard case .string(let access)? = rotated.json?["data"]?["access_token"] else {
            Issue.record("no access token in \(rotated.body)")
            return
        }
        #expect(access != tokens.access)
        #expect(try backend.send("POST", "/api/v1/auth/token/refresh", body: body).code == 1007, "the old refresh token is spent")
        #expect(try backend.send("GET", "/api/v1/signals/inbox", bearer: access).code == 0)
    }

    /// The regression of the stage rewrite: a logout answered under a slow body still revokes its token.
    @Test(arguments: BackendMode.allCases)
    func aLogoutDeliveredSlowlyStillRevokesItsToken(_ mode: BackendMode) throws {
        let backend = try Backend(mode)
        let tokens = try logIn(backend, session: "both-slow")
        let logout = try backend.send("POST", "/api/v1/auth/logout", body: #"{"device_id":"D-1"}"#, bearer: tokens.access, headers: [("X-Accord-Inject", "slow:1ms")])
        #expect(logout.code == 0, "\(logout.body)")
        #expect(try backend.send("GET", "/api/v1/signals/inbox", bearer: tokens.access).code == 1006)
        let reset = try logIn(backend, session: "both-slow")
        _ = try backend.send("POST", "/api/v1/auth/logout", body: #"{"device_id":"D-1"}"#, bearer: reset.access, headers: [("X-Accord-Inject", "503")])
        #expect(try backend.send("GET", "/api/v1/signals/inbox", bearer: reset.access).code == 0, "a 503 lost the logout: the token stands")
    }

    @Test(arguments: BackendMode.allCases)
    func refusalsNameWhatIsWrong(_ mode: BackendMode) throws {
        let backend = try Backend(mode)
        let tokens = try logIn(backend, session: "both-refusals")
        let invalid = try backend.send("GET", "/api/v1/signals/inbox?limit=x", bearer: tokens.access)
        #expect(invalid.status == 400)
        #expect(invalid.json?.value(at: "/data/violations/0/pointer") == .string("/query/limit"), "\(invalid.body)")
        let unsigned = try backend.send("GET", "/api/v1/signals/inbox", bearer: tokens.access, signed: false)
        #expect(unsigned.code == 1001)
        #expect(unsigned.json?.value(at: "/data/missing_headers/0") == .string("X-App-Key"))
        let unknown = try backend.send("GET", "/api/v1/signal/inbox", bearer: tokens.access)
        #expect(unknown.status == 404)
        #expect(unknown.json?.value(at: "/data/nearest/0") == .string("GET /api/v1/signals/inbox"), "\(unknown.body)")
        let wrongMethod = try backend.send("DELETE", "/api/v1/signals/inbox", bearer: tokens.access)
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("allow") == "GET, HEAD, OPTIONS")
    }

    @Test(arguments: BackendMode.allCases)
    func injectedAnswersAndRulesReachTheClientAndTheJournal(_ mode: BackendMode) throws {
        let backend = try Backend(mode)
        let tokens = try logIn(backend, session: "both-inject")
        let quota = try backend.send("GET", "/api/v1/signals/inbox", bearer: tokens.access,
                                     headers: [("X-Accord-Inject", "3008"), ("X-Accord-Session", "both-inject")])
        #expect(quota.code == 3008)
        let rule = try backend.control("POST", "rules", body: #"{"match":{"endpoint":"signal.inbox","session":"both-inject"},"respond":"token-invalid","times":1}"#)
        #expect(rule.status == 201, "\(rule.body)")
        let headers = [("X-Accord-Session", "both-inject")]
        #expect(try backend.send("GET", "/api/v1/signals/inbox", bearer: tokens.access, headers: headers).code == 1005)
        #expect(try backend.send("GET", "/api/v1/signals/inbox", bearer: tokens.access, headers: headers).code == 0, "the rule fired once")
        let journal = try backend.control("GET", "requests?session=both-inject")
        guard case .array(let entries)? = journal.json?["requests"] else {
            Issue.record("no journal: \(journal.body)")
            return
        }
        let injected = entries.compactMap { entry -> String? in if case .string(let source)? = entry["injected"] { source } else { nil } }
        #expect(injected.contains("header"))
        #expect(injected.contains { $0.hasPrefix("rule:") })
    }
}
