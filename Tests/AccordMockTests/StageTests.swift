import AccordContract
import AccordJSON
import AccordSigning
import AccordTesting
import Testing
@testable import AccordMock

/// Each stage on its own, built from the repository's contract and a fresh state.
@Suite struct StageTests {
    let contract = Repository.contract
    let envelopes = Envelopes(service: Repository.contract.service)
    let state = MockState(clock: MockClock(wall: 1_796_025_600), nonceTTLSeconds: 600)

    func route(_ id: String, _ parameters: [String: String] = [:]) throws -> Route {
        Route(endpoint: try #require(contract.endpoint(id)), parameters: parameters)
    }

    func run(_ stage: any RequestStage, _ request: MockRequest) -> (StageResult, Exchange) {
        var exchange = Exchange(request: request)
        return (stage.run(&exchange), exchange)
    }

    func run(_ stage: any RoutedStage, _ request: MockRequest, _ route: Route, body: JSONValue? = nil) -> (StageResult, Exchange) {
        var exchange = Exchange(request: request)
        exchange.body = body
        return (stage.run(&exchange, route: route), exchange)
    }

    func answer(_ result: StageResult) throws -> MockResponse {
        guard case .answer(let response) = result else {
            Issue.record("the stage passed the request on")
            throw CancellationError()
        }
        return response
    }

    func passes(_ result: StageResult) -> Bool {
        if case .proceed = result { true } else { false }
    }

    // MARK: Before routing

    @Test func steeringFromBeyondLoopbackNeedsTheAdminToken() throws {
        let stage = SteeringStage(options: MockOptions(adminToken: "s3cret"), envelopes: envelopes)
        var request = MockRequest(method: "GET", target: "/x", headers: [("X-Accord-Session", "a"), ("X-Accord-Inject", "3008")])
        #expect(passes(run(stage, request).0))
        request.isFromLoopback = false
        let refused = try answer(run(stage, request).0)
        #expect(refused.status == 403)
        #expect(refused.json?["msg"] == .string("x-accord-inject, x-accord-session from beyond this machine need X-Accord-Admin-Token (or start the server with --allow-remote-steering)"))
        request.headers["x-accord-admin-token"] = "s3cret"
        #expect(passes(run(stage, request).0))
        var openOptions = MockOptions()
        openOptions.allowsRemoteSteering = true
        let open = SteeringStage(options: openOptions, envelopes: envelopes)
        request.headers["x-accord-admin-token"] = nil
        #expect(passes(run(open, request).0))
        let long = MockRequest(method: "GET", target: "/x", headers: [("X-Accord-Session", String(repeating: "s", count: 129))])
        #expect(try answer(run(stage, long).0).json?["data"]?["error"] == .string("invalid_session"))
    }

    @Test func framingProblemsAndEncodedNULsEndTheRequest() throws {
        let stage = FramingStage(envelopes: envelopes)
        var framed = MockRequest(method: "GET", target: "/x")
        #expect(passes(run(stage, framed).0))
        framed.framingProblem = "two Content-Length headers"
        #expect(try answer(run(stage, framed).0).json?["msg"] == .string("two Content-Length headers"))
        let nul = try answer(run(stage, MockRequest(method: "GET", target: "/x?a=%00")).0)
        #expect(nul.status == 400)
        #expect(nul.json?["data"]?["error"] == .string("nul_in_target"))
    }

    @Test func preflightAnswersOptionsAndPassesEverythingElse() throws {
        let router = Router(contract: contract)
        let cors = PreflightStage(router: router, service: contract.service, corsAllowOrigin: "https://app.example", envelopes: envelopes)
        #expect(passes(run(cors, MockRequest(method: "GET", target: "/api/v1/signals/quota")).0))
        let plain = try answer(run(cors, MockRequest(method: "OPTIONS", target: "/api/v1/signals/quota")).0)
        #expect(plain.status == 204)
        #expect(plain.headers.map(\.name) == ["Allow"])
        #expect(plain.header("allow") == "GET, HEAD, OPTIONS", "the literal /signals/quota's methods, not /signals/{id}'s")
        let preflight = try answer(run(cors, MockRequest(method: "OPTIONS", target: "/api/v1/signals/quota",
                                                         headers: [("Access-Control-Request-Method", "GET")])).0)
        #expect(preflight.header("access-control-allow-origin") == "https://app.example")
        #expect(preflight.header("access-control-allow-headers")?.hasPrefix("X-App-Key, X-Timestamp, X-Nonce, X-Sign, Authorization") == true)
        #expect(try answer(run(cors, MockRequest(method: "OPTIONS", target: "/api/v1/nope")).0).status == 404)
    }

    @Test func anOversizeBodyIsRefusedWithItsEndpointsLimit() throws {
        let stage = BodyLimitStage(limits: BodyLimits(contract: contract, router: Router(contract: contract), json: 1_024), envelopes: envelopes)
        #expect(passes(run(stage, MockRequest(method: "POST", target: "/x", body: [1])).0))
        let refused = try answer(run(stage, MockRequest(method: "POST", target: "/api/v1/feedback", bodyLimitExceeded: true)).0)
        #expect(refused.status == 413)
        #expect(refused.json?["msg"] == .string("the body is larger than the limit of 1024 bytes"))
        // An upload endpoint's limit is its files' declared maximum and room for the text parts.
        let upload = try answer(run(stage, MockRequest(method: "POST", target: "/api/v1/uploads/images?x=1", bodyLimitExceeded: true)).0)
        #expect(upload.json?["msg"] == .string("the body is larger than the limit of \((4 << 20) + (64 << 10)) bytes"))
        var busy = MockRequest(method: "POST", target: "/api/v1/feedback")
        busy.bodyBudgetExhausted = true
        let refusedBusy = try answer(run(stage, busy).0)
        #expect(refusedBusy.status == 503)
        #expect(refusedBusy.header("retry-after") == "1")
        #expect(refusedBusy.json?["data"]?["error"] == .string("server_busy"))
    }

    // MARK: Routing

    @Test func routingDecodesEachSegmentAndExplainsMisses() throws {
        let stage = RouteStage(router: Router(contract: contract), envelopes: envelopes)
        guard case .found(let found) = stage.route(MockRequest(method: "GET", target: "/api/v1/signals/a%2Fb")) else {
            Issue.record("no route")
            return
        }
        #expect(found.endpoint.id == "signal.detail")
        #expect(found.parameters == ["signal_id": "a/b"])
        guard case .refused(let wrongMethod) = stage.route(MockRequest(method: "PATCH", target: "/api/v1/signals/quota")) else {
            Issue.record("routed")
            return
        }
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("allow") == "GET, HEAD, OPTIONS")
        guard case .refused(let missing) = stage.route(MockRequest(method: "GET", target: "/api/v1/signal/quota")) else {
            Issue.record("routed")
            return
        }
        #expect(missing.json?.value(at: "/data/nearest/0") == .string("GET /api/v1/signals/quota"))
    }

    // MARK: Routed

    @Test func theBodyIsDecodedOnlyWhenItIsJSON() throws {
        let stage = BodyStage(envelopes: envelopes)
        let publish = try route("signal.publish")
        let untyped = try answer(run(stage, MockRequest(method: "POST", target: "/", body: Array("{}".utf8)), publish).0)
        #expect(untyped.status == 415)
        let typed = [("Content-Type", "application/json")]
        let broken = try answer(run(stage, MockRequest(method: "POST", target: "/", headers: typed, body: Array("{\n  x".utf8)), publish).0)
        #expect(broken.json?["data"]?["line"] == .int(2))
        #expect(broken.json?["data"]?["column"] == .int(3))
        let (result, exchange) = run(stage, MockRequest(method: "POST", target: "/", headers: typed, body: Array(#"{"a":1}"#.utf8)), publish)
        #expect(passes(result))
        #expect(exchange.body == .object([.init("a", .int(1))]))
    }

    @Test func theSignatureStageSkipsExemptEndpointsAndAnswersStaleTimestamps() throws {
        let verifier = SignatureVerifier(settings: contract.service.signing, nonces: state.nonces)
        var service = contract.service
        service.signing.exempt = ["app.*"]
        var exemptContract = contract
        exemptContract.service = service
        let stage = SignatureStage(verifier: verifier, contract: exemptContract, clock: state.clock, envelopes: envelopes)
        #expect(passes(run(stage, MockRequest(method: "GET", target: "/"), try route("app.start-config")).0))
        let stale = MockRequest(method: "GET", target: "/", headers: [("X-App-Key", "dev_app_key"), ("X-Timestamp", "1796020000"),
                                                                      ("X-Nonce", "n-1"), ("X-Sign", "00")])
        let refused = try answer(run(stage, stale, try route("signal.quota")).0)
        #expect(refused.summary.verdict == .stale)
        #expect(refused.json?["code"] == .int(1003))
        #expect(refused.json?["data"]?["window_seconds"] == .int(300))
    }

    @Test func authenticationAnswersEachTokenStateWithItsCode() throws {
        let stage = AuthenticationStage(tokens: state.tokens, auth: contract.service.auth, envelopes: envelopes)
        let quota = try route("signal.quota")
        func code(_ token: String?) throws -> JSONValue? {
            let request = MockRequest(method: "GET", target: "/", headers: token.map { [("Authorization", "Bearer \($0)")] } ?? [])
            return try answer(run(stage, request, quota).0).json?["code"]
        }
        let live = state.tokens.issue(uid: 7)
        let (result, exchange) = run(stage, MockRequest(method: "GET", target: "/", headers: [("Authorization", "Bearer \(live.accessToken)")]), quota)
        #expect(passes(result))
        #expect(exchange.user == 7)
        #expect(exchange.session == "user:7")
        #expect(try code(nil) == .int(1006))
        #expect(try code("at_unknown") == .int(1005))
        state.tokens.setBan(TokenStore.Ban(reason: "spam"), uid: 7)
        #expect(try code(live.accessToken) == .int(1008))
        state.tokens.expireAccessTokens(uid: 7)
        #expect(try code(live.accessToken) == .int(1002))
        state.tokens.forceLogout(uid: 7)
        #expect(try code(live.accessToken) == .int(1006))
        #expect(passes(run(stage, MockRequest(method: "GET", target: "/"), try route("app.start-config")).0))
    }

    @Test func validationListsEveryViolation() throws {
        let stage = ValidationStage(validator: RequestValidator(contract: contract), envelopes: envelopes)
        let refused = try answer(run(stage, MockRequest(method: "GET", target: "/?limit=x&bogus=1"), try route("signal.inbox")).0)
        let pointers = refused.json?["data"]?["violations"].flatMap { value -> [JSONValue]? in
            if case .array(let items) = value { items } else { nil }
        }?.compactMap { $0["pointer"] }
        #expect(pointers?.contains(.string("/query/limit")) == true)
        #expect(pointers?.contains(.string("/query/bogus")) == true)
        #expect(pointers?.contains(.string("/headers/X-Device-Id")) == true)
    }

    @Test func injectionAnswersCodesAndHandsFaultsOn() throws {
        let stage = InjectionStage(state: state, contract: contract, scenarios: [:], defaultScenario: nil, envelopes: envelopes)
        let quota = try route("signal.quota")
        let injected = try answer(run(stage, MockRequest(method: "GET", target: "/", headers: [("X-Accord-Inject", "banned")]), quota).0)
        #expect(injected.json?["code"] == .int(1008))
        #expect(injected.json?["data"]?["ban_info"]?["reason"] == .string("banned by an injected answer"))
        // A code whose table entry declares data answers a value of it when the injection gives none.
        let frequent = try answer(run(stage, MockRequest(method: "GET", target: "/", headers: [("X-Accord-Inject", "sms-too-frequent")]), quota).0)
        #expect(frequent.json?["data"] == .object([.init("retry_after_seconds", .int(1))]))
        let (latency, delayed) = run(stage, MockRequest(method: "GET", target: "/", headers: [("X-Accord-Inject", "latency:250ms")]), quota)
        #expect(passes(latency))
        #expect(delayed.addedDelay == 250)
        #expect(delayed.injected == "header")
        let (reset, faulted) = run(stage, MockRequest(method: "GET", target: "/", headers: [("X-Accord-Inject", "reset")]), quota)
        #expect(passes(reset))
        #expect(faulted.fault == .connectionReset)
        let unknown = try answer(run(stage, MockRequest(method: "GET", target: "/", headers: [("X-Accord-Scenario", "nope")]), quota).0)
        #expect(unknown.json?["data"]?["error"] == .string("invalid_injection"))
    }

    @Test func theAnswerStageRendersTheChosenAnswerIntoTheExchange() throws {
        var fixture = try EngineFixture()
        let stage = try #require(fixture.engine.pipeline.routed.compactMap { $0 as? AnswerStage }.first)
        let (result, exchange) = run(stage, fixture.signed("GET", "/api/v1/signals/quota"), try route("signal.quota"))
        #expect(passes(result))
        #expect(exchange.response?.summary.source == "example:default")
        #expect(exchange.response?.json?["data"]?["daily_limit"] == .int(20))
    }

    @Test func tokenFlowsIssueForLoginsRefuseBannedUsersAndRevokeOnLogout() throws {
        let grant = TokenGrant(tokens: state.tokens, auth: contract.service.auth, envelopes: envelopes)
        let stage = TokenFlowStage(grant: grant, authHeader: "authorization", envelopeNames: contract.service.envelope)
        let login = try route("auth.login-phone")
        var exchange = Exchange(request: MockRequest(method: "POST", target: "/"))
        exchange.response = MockResponse(status: 200, body: .bytes(Array(#"{"code":0,"msg":"ok","data":{"access_token":"at_fixture","user":{"uid":5}}}"#.utf8)),
                                         summary: .init(code: 0, verdict: .ok))
        #expect(passes(stage.run(&exchange, route: login)))
        guard case .string(let issued)? = exchange.response?.json?["data"]?["access_token"] else {
            Issue.record("no token")
            return
        }
        #expect(issued != "at_fixture")
        #expect(state.tokens.verdict(authorization: "Bearer \(issued)", scheme: "Bearer") == .valid(uid: 5))
        state.tokens.setBan(TokenStore.Ban(reason: "spam"), uid: 5)
        #expect(try answer(stage.run(&exchange, route: login)).json?["code"] == .int(1008))
        var logout = Exchange(request: MockRequest(method: "POST", target: "/", headers: [("Authorization", "Bearer \(issued)")]))
        logout.response = MockResponse(status: 200, summary: .init(code: 0, verdict: .ok))
        #expect(passes(stage.run(&logout, route: try route("auth.logout"))))
        #expect(state.tokens.verdict(authorization: "Bearer \(issued)", scheme: "Bearer") == .revoked(uid: 5))
    }

    @Test func faultsReplaceOrDelayTheAnswer() throws {
        let stage = FaultStage(state: state)
        var exchange = Exchange(request: MockRequest(method: "GET", target: "/"))
        exchange.response = MockResponse(status: 200, body: .bytes(Array("{}".utf8)), delayMilliseconds: 10, summary: .init(code: 0, verdict: .ok))
        exchange.addedDelay = 5
        exchange.fault = .httpStatus(503)
        #expect(passes(stage.run(&exchange, route: try route("signal.quota"))))
        #expect(exchange.response?.status == 503)
        #expect(exchange.response?.header("retry-after") == "5")
        #expect(exchange.response?.text == "Service Unavailable")
        #expect(exchange.response?.delayMilliseconds == 15)
        #expect(exchange.response?.summary.verdict == .fault)
    }

    // MARK: On the way out

    @Test func corsAddsTheOriginOnceToBrowserRequests() {
        let stage = CORSStage(allowOrigin: "https://app.example")
        var response = MockResponse(status: 200, summary: .init(verdict: .ok))
        stage.finish(&response, for: Exchange(request: MockRequest(method: "GET", target: "/")))
        #expect(response.headers.isEmpty)
        let browser = Exchange(request: MockRequest(method: "GET", target: "/", headers: [("Origin", "https://app.example")]))
        stage.finish(&response, for: browser)
        stage.finish(&response, for: browser)
        #expect(response.headers.map(\.name) == ["Access-Control-Allow-Origin", "Vary"])
    }

    @Test func theJournalFilesWhoAskedAndWhatAnswered() {
        let stage = JournalStage(journal: state.journal, clock: state.clock, feed: state.events, envelope: contract.service.envelope)
        var exchange = Exchange(request: MockRequest(method: "GET", target: "/api/v1/signals/quota", headers: [("X-Accord-Session", "s1")]))
        exchange.user = 9
        exchange.injected = "rule:2"
        var response = MockResponse(status: 200, summary: .init(endpoint: "signal.quota", source: "injected", code: 3008, verdict: .injected))
        stage.finish(&response, for: exchange)
        let entry = state.journal.entries().last
        #expect(entry?.session == "s1")
        #expect(entry?.user == 9)
        #expect(entry?.injected == "rule:2")
        #expect(entry?.json["verdict"] == .string("injected"))
    }
}
