import AccordContract
import AccordHTTP
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordTesting
import Testing

@Suite struct FlowTests {
    let codes = Repository.contract.service.codes

    @Test func injectionsReadCodesNamesAndFaults() throws {
        #expect(try Injection(parsing: "1005", codes: codes) == .business(code: 1005, message: nil, data: nil))
        #expect(try Injection(parsing: "token-invalid", codes: codes) == .business(code: 1005, message: nil, data: nil))
        #expect(try Injection(parsing: "quota", codes: codes) == .business(code: 3008, message: nil, data: nil))
        #expect(try Injection(parsing: "503", codes: codes) == .fault(.httpStatus(503)))
        #expect(try Injection(parsing: "reset", codes: codes) == .fault(.connectionReset))
        #expect(try Injection(parsing: "slow", codes: codes) == .fault(.slowBody(chunkDelayMilliseconds: 200)))
        #expect(try Injection(parsing: "latency:100ms-2s", codes: codes) == .latency(100...2_000))
        #expect(throws: Injection.SyntaxError(message: "unknown injection 'banend' (did you mean 'banned'?); expected a business code (1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 2001, 2002, 2003, 2004, 2005, 2006, 3001, 3002, 3008, 4001, 4002, 5001, 5002), its name, or a fault: reset, empty, malformed, slow, slow:300ms, latency:300ms, latency:100ms-2s, 500, 502, 503, 504")) {
            try Injection(parsing: "banend", codes: codes)
        }
        #expect(throws: Injection.SyntaxError.self) { try Injection(parsing: "4040", codes: codes) }
    }

    @Test func commandLineRulesTakeModifiers() throws {
        let once = try InjectionRule(parsing: "auth.*=1005@once", codes: codes)
        #expect(once.endpoint == "auth.*")
        #expect(once.remaining == 1)
        let chance = try InjectionRule(parsing: "signal.publish=quota@p0.5@after2", codes: codes)
        #expect(chance.probability == 0.5)
        #expect(chance.after == 2)
        #expect(throws: Injection.SyntaxError(message: "unknown modifier '@twice'; use @once, @N (times, 1 to 1000000), @p0.3 (probability from 0 to 1) or @afterN (0 to 1000000)")) {
            try InjectionRule(parsing: "signal.publish=3008@twice", codes: codes)
        }
        #expect(throws: Injection.SyntaxError.self) { try InjectionRule(parsing: "3008", codes: codes) }
    }

    @Test func rulesFireAfterTheirSkipAndStopAfterTheirTimes() throws {
        let rules = InjectionRules(random: { 0.5 })
        let rule = try rules.add(InjectionRule(endpoint: "signal.*", session: "a", action: .fault(.emptyReply), times: 2, after: 1))
        #expect(rules.fire(endpoint: "signal.inbox", user: nil, session: "b") == nil)          // other session
        #expect(rules.fire(endpoint: "auth.refresh", user: nil, session: "a") == nil)          // other endpoint
        #expect(rules.fire(endpoint: "signal.inbox", user: nil, session: "a") == nil)          // skipped by after: 1
        #expect(rules.fire(endpoint: "signal.inbox", user: nil, session: "a")?.id == rule.id)
        #expect(rules.fire(endpoint: "signal.quota", user: nil, session: "a")?.id == rule.id)
        #expect(rules.fire(endpoint: "signal.inbox", user: nil, session: "a") == nil)          // used up
        #expect(rules.all.isEmpty)
        try rules.add(InjectionRule(endpoint: "*", action: .fault(.emptyReply), probability: 0.4))
        #expect(rules.fire(endpoint: "x.y", user: nil, session: "a") == nil)                   // drew 0.5 >= 0.4
    }

    @Test func aLogoutWhoseAnswerIsDeliveredRevokesItsTokenWhateverFaultSlowsIt() throws {
        // The answer is sent under latency and a slow body: the token is revoked. Under a reset, a 503 or an empty
        // reply the answer is lost, standing for a failure before the backend: the token stays.
        for (fault, revoked) in [("latency:5ms", true), ("slow:1ms", true), ("reset", false), ("503", false), ("empty", false)] {
            var fixture = try EngineFixture(fixturesIn: Repository.mocks)
            let logout = fixture.handle(fixture.signed("POST", "/api/v1/auth/logout", body: #"{"device_id":"D-1"}"#, headers: [("X-Accord-Inject", fault)]))
            // Latency keeps the answer as it is, only later; every other fault is the answer's verdict.
            #expect(fault.hasPrefix("latency") ? logout.delayMilliseconds >= 5 : logout.summary.verdict == .fault, "\(fault): \(logout.summary)")
            let after = fixture.handle(fixture.signed("GET", "/api/v1/users/me"))
            #expect(after.code == (revoked ? .int(1006) : .int(0)), "\(fault): \(after.text.prefix(120))")
        }
    }

    @Test func refreshRotatesAndRetiresTheOldPair() throws {
        let clock = MockClock(wall: 1_000)
        let tokens = TokenStore(clock: clock, accessTTL: 60, refreshTTL: 600)
        let first = tokens.issue(uid: 7)
        #expect(first.accessToken.hasPrefix("at_") && first.accessToken.count == 35)
        #expect(tokens.verdict(authorization: "Bearer \(first.accessToken)", scheme: "Bearer") == .valid(uid: 7))
        try clock.advance(by: 60)
        #expect(tokens.verdict(authorization: "Bearer \(first.accessToken)", scheme: "Bearer") == .expired(uid: 7))
        let rotated = tokens.refresh(first.refreshToken)
        #expect(rotated?.uid == 7)
        #expect(tokens.refresh(first.refreshToken) == nil)                                   // rotated: 1007
        // A request still in flight with the old token is told to refresh, not to log out.
        #expect(tokens.verdict(authorization: "Bearer \(first.accessToken)", scheme: "Bearer") == .expired(uid: 7))
        let fresh = tokens.issue(uid: 8)
        _ = tokens.refresh(fresh.refreshToken)
        #expect(tokens.verdict(authorization: "Bearer \(fresh.accessToken)", scheme: "Bearer") == .invalidated)
        #expect(tokens.verdict(authorization: "Bearer at_unknown", scheme: "Bearer") == .invalidated)
        #expect(tokens.verdict(authorization: nil, scheme: "Bearer") == .missing)
        try clock.advance(by: 601)
        #expect(tokens.refresh(rotated!.pair.refreshToken) == nil)                           // expired: 1007
    }

    @Test func tokenStoreForgetsTheOldestPairsPastItsCapacity() {
        let tokens = TokenStore(clock: MockClock(wall: 0), accessTTL: 60, refreshTTL: 600, capacity: 100)
        let first = tokens.issue(uid: 1)
        for uid in 2...1_000 { _ = tokens.issue(uid: uid) }
        #expect(tokens.count == 100)
        #expect(tokens.verdict(authorization: "Bearer \(first.accessToken)", scheme: "Bearer") == .invalidated)
        #expect(tokens.refresh(first.refreshToken) == nil)
    }

    @Test func controlAPIAnswersLoopbackPeersOnly() throws {
        let fixture = try EngineFixture()
        var remote = MockRequest(method: "GET", target: "/__accord/rules")
        remote.isFromLoopback = false
        let refused = fixture.handle(remote)
        #expect(refused.status == 403)
        #expect(refused.text == #"{"error":"loopback_only","message":"the control API answers loopback clients only; start the server with --admin-token to allow others"}"#)
        #expect(fixture.handle(MockRequest(method: "GET", target: "/__accord/rules")).text == #"{"rules":[]}"#)
        let unknown = fixture.handle(MockRequest(method: "GET", target: "/__accord/nothing"))
        #expect(unknown.status == 404)
    }

    @Test func loginIssuesRealTokensOverTheFixturesOnes() throws {
        var fixture = try EngineFixture()
        let body = #"{"phone":"13800138000","code":"123456","device_info":{"device_id":"D","os":"ios","os_version":"26","model":"m","app_version":"1"}}"#
        let login = fixture.handle(fixture.signed("POST", "/api/v1/auth/login/phone", body: body, bearer: .none))
        guard case .string(let access)? = login.json?.value(at: "/data/access_token") else {
            Issue.record("no token: \(login.text)")
            return
        }
        #expect(access != "at_3f9c2e7a51d04b8e")   // the example's
        #expect(try fixture.state.tokens.verdict(authorization: "Bearer \(access)", scheme: "Bearer") == .valid(uid: 10086))
        let me = fixture.handle(fixture.signed("GET", "/api/v1/users/me", bearer: .token(access)))
        #expect(me.code == .int(0))
    }

    /// libcurl and URLSession send an idempotent request again, byte for byte, when the
    /// reused connection it went out on dies before an answer: after a fault that stands
    /// for a failure before the backend, that resend is no replay; a second one is.
    @Test func theHTTPStacksResendAfterAFaultBeforeTheBackendIsNoReplay() throws {
        var fixture = try EngineFixture()
        let rule = #"{"match": {"endpoint": "signal.quota"}, "fault": "reset", "times": 1}"#
        let added = fixture.handle(MockRequest(method: "POST", target: "/__accord/rules", headers: [("Content-Type", "application/json")],
                                               body: Array(rule.utf8)))
        #expect(added.status == 201)
        let request = fixture.signed("GET", "/api/v1/signals/quota")
        #expect(fixture.handle(request).summary.verdict == .fault)
        #expect(fixture.handle(request).code == .int(0))
        #expect(fixture.handle(request).code == .int(1004))
        // An answer delivered (no fault) keeps its nonce: the same bytes again are a replay.
        let answered = fixture.signed("GET", "/api/v1/signals/quota")
        #expect(fixture.handle(answered).code == .int(0))
        #expect(fixture.handle(answered).code == .int(1004))
        #expect(try fixture.state.journal.entries().compactMap(\.fault) == ["reset"])
    }

    @Test func aRefreshAnsweredWithAFaultThatLosesTheAnswerRotatesNothing() throws {
        var fixture = try EngineFixture()
        let pair = try fixture.state.tokens.issue(uid: 7)
        let body = #"{"refresh_token":"\#(pair.refreshToken)"}"#
        for fault in ["503", "reset", "empty", "malformed"] {
            let faulted = fixture.handle(fixture.signed("POST", "/api/v1/auth/token/refresh", body: body, headers: [("X-Accord-Inject", fault)],
                                                        bearer: .none))
            #expect(faulted.summary.verdict == .fault, "\(fault)")
        }
        // The refresh token still works: the faults stood for failures before the backend.
        let refreshed = fixture.handle(fixture.signed("POST", "/api/v1/auth/token/refresh", body: body, bearer: .none))
        #expect(refreshed.code == .int(0))
        // Used once, it is rotated: the next use is refused.
        let rotated = fixture.handle(fixture.signed("POST", "/api/v1/auth/token/refresh", body: body, bearer: .none))
        #expect(rotated.code == .int(1007))
    }
}
