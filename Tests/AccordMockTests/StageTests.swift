import AccordContract
import AccordHTTP
import AccordJSON
@testable import AccordMocksFormat
import AccordMockState
import AccordSigning
import AccordTesting
import Testing
@testable import AccordMock

/// Each stage on its own, built from the repository's contract and a fresh state.
@Suite struct StageTests {
    let contract = Repository.contract
    let envelopes = Envelopes(service: Repository.contract.service)
    let state = MockState(clock: MockClock(wall: 1_796_025_600), nonceTTLSeconds: 600)

    func route(_ id: String) throws -> Route {
        Route(endpoint: try #require(contract.endpoint(id)))
    }

    /// The rest of a path that answers `response` and marks the exchange as having reached it.
    struct Answering: Stage {
        let response: MockResponse
        func respond(to exchange: inout Exchange, next: Next) -> MockResponse {
            exchange.passed = true
            return response
        }
    }

    static let ok = MockResponse(status: 200, body: .bytes(Array("{}".utf8)), summary: .init(code: 0, verdict: .ok))

    /// `stage` on `exchange`, the rest of the path answering `rest`: the answer, and whether the rest was reached.
    func run(_ stage: any Stage, _ exchange: inout Exchange, rest: MockResponse = ok) throws(StorageError) -> (response: MockResponse, passed: Bool) {
        let response = try stage.respond(to: &exchange, next: Next([Answering(response: rest)]))
        return (response, exchange.passed)
    }

    /// `stage` on `request`, routed to `route` when given.
    func run(_ stage: any Stage, _ request: MockRequest, _ route: Route? = nil, body: JSONValue? = nil) throws(StorageError) -> (StageResult, Exchange) {
        var exchange = Exchange(request: request)
        exchange.route = route
        exchange.body = body
        let (response, passed) = try run(stage, &exchange)
        return (passed ? .proceed : .answer(response), exchange)
    }

    /// What a stage did with a request: passed it on, or ended it with an answer.
    enum StageResult {
        case proceed
        case answer(MockResponse)
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
        #expect(try passes(run(stage, request).0))
        request.isFromLoopback = false
        let refused = try answer(run(stage, request).0)
        #expect(refused.status == 403)
        #expect(refused.json?["msg"] == .string("x-accord-inject, x-accord-session from beyond this machine need X-Accord-Admin-Token (or start the server with --allow-remote-steering)"))
        request.headers["x-accord-admin-token"] = "s3cret"
        #expect(try passes(run(stage, request).0))
        var openOptions = MockOptions()
        openOptions.allowsRemoteSteering = true
        let open = SteeringStage(options: openOptions, envelopes: envelopes)
        request.headers["x-accord-admin-token"] = nil
        #expect(try passes(run(open, request).0))
        let long = MockRequest(method: "GET", target: "/x", headers: [("X-Accord-Session", String(repeating: "s", count: 129))])
        #expect(try answer(run(stage, long).0).json?["data"]?["error"] == .string("invalid_session"))
    }

    @Test func framingProblemsAndEncodedNULsEndTheRequest() throws {
        let stage = FramingStage(envelopes: envelopes)
        var framed = MockRequest(method: "GET", target: "/x")
        #expect(try passes(run(stage, framed).0))
        framed.framingProblem = "two Content-Length headers"
        #expect(try answer(run(stage, framed).0).json?["msg"] == .string("two Content-Length headers"))
        let nul = try answer(run(stage, MockRequest(method: "GET", target: "/x?a=%00")).0)
        #expect(nul.status == 400)
        #expect(nul.json?["data"]?["error"] == .string("nul_in_target"))
    }

    @Test func preflightAnswersOptionsAndPassesEverythingElse() throws {
        let router = Router(contract: contract)
        let cors = CORSStage(router: router, service: contract.service, allowOrigin: "https://app.example", envelopes: envelopes)
        #expect(try passes(run(cors, MockRequest(method: "GET", target: "/api/v1/signals/quota")).0))
        let plain = try answer(run(cors, MockRequest(method: "OPTIONS", target: "/api/v1/signals/quota")).0)
        #expect(plain.status == 204)
        #expect(plain.headers.map(\.name) == ["Allow"], "no Origin, no CORS headers")
        #expect(plain.header("allow") == "GET, HEAD, OPTIONS", "the literal /signals/quota's methods, not /signals/{id}'s")
        let preflight = try answer(run(cors, MockRequest(method: "OPTIONS", target: "/api/v1/signals/quota",
                                                         headers: [("Access-Control-Request-Method", "GET")])).0)
        #expect(preflight.header("access-control-allow-origin") == "https://app.example")
        #expect(preflight.header("access-control-allow-headers")?.hasPrefix("X-App-Key, X-Timestamp, X-Nonce, X-Sign, Authorization") == true)
        #expect(try answer(run(cors, MockRequest(method: "OPTIONS", target: "/api/v1/nope")).0).status == 404)
    }

    @Test func anOversizeBodyIsRefusedWithItsEndpointsLimit() throws {
        let stage = BodyLimitStage(limits: BodyLimits(contract: contract, router: Router(contract: contract), json: 1_024), envelopes: envelopes)
        #expect(try passes(run(stage, MockRequest(method: "POST", target: "/x", body: [1])).0))
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
        let (result, routed) = try run(stage, MockRequest(method: "GET", target: "/api/v1/signals/a%2Fb"))
        #expect(passes(result))
        #expect(routed.route?.endpoint.id == "signal.detail")
        #expect(routed.parameters == ["signal_id": "a/b"])
        let (refused, wrong) = try run(stage, MockRequest(method: "PATCH", target: "/api/v1/signals/quota"))
        let wrongMethod = try answer(refused)
        #expect(wrongMethod.status == 405)
        #expect(wrongMethod.header("allow") == "GET, HEAD, OPTIONS")
        #expect(wrong.refusal?.verdict == .method)
        let missing = try answer(run(stage, MockRequest(method: "GET", target: "/api/v1/signal/quota")).0)
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
        let (result, exchange) = try run(stage, MockRequest(method: "POST", target: "/", headers: typed, body: Array(#"{"a":1}"#.utf8)), publish)
        #expect(passes(result))
        #expect(exchange.body == .object([.init("a", .int(1))]))
    }

    @Test func theSignatureStageSkipsExemptEndpointsAndAnswersStaleTimestamps() throws {
        let verifier = SignatureVerifier(settings: contract.service.signing)
        var service = contract.service
        service.signing.exempt = ["app.*"]
        var exemptContract = contract
        exemptContract.service = service
        let stage = SignatureStage(verifier: verifier, nonces: state.nonces, contract: exemptContract, clock: state.clock, envelopes: envelopes)
        #expect(try passes(run(stage, MockRequest(method: "GET", target: "/"), try route("app.start-config")).0))
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
        let live = try state.tokens.issue(uid: 7)
        let (result, exchange) = try run(stage, MockRequest(method: "GET", target: "/", headers: [("Authorization", "Bearer \(live.accessToken)")]), quota)
        #expect(passes(result))
        #expect(exchange.user == 7)
        #expect(exchange.session == "user:7")
        #expect(try code(nil) == .int(1006))
        #expect(try code("at_unknown") == .int(1005))
        try state.tokens.setBan(UserBan(reason: "spam"), uid: 7)
        #expect(try code(live.accessToken) == .int(1008))
        try state.tokens.expireAccessTokens(uid: 7)
        #expect(try code(live.accessToken) == .int(1002))
        try state.tokens.forceLogout(uid: 7)
        #expect(try code(live.accessToken) == .int(1006))
        #expect(try passes(run(stage, MockRequest(method: "GET", target: "/"), try route("app.start-config")).0))
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
        // The same violations, typed, in the exchange: what the journal and the report read.
        let (_, exchange) = try run(stage, MockRequest(method: "GET", target: "/?limit=x&bogus=1"), try route("signal.inbox"))
        #expect(exchange.refusal?.violations.map { JSONValue.string($0.pointer) } == pointers)
        #expect(exchange.refusal?.verdict == .invalid)
    }

    @Test func injectionAnswersCodesAndHandsFaultsOn() throws {
        let stage = InjectionStage(state: state, contract: contract, scenarios: [:], defaultScenario: nil, envelopes: envelopes, seed: 0)
        let quota = try route("signal.quota")
        let (injected, _) = try run(stage, MockRequest(method: "GET", target: "/", headers: [("X-Accord-Inject", "banned")]), quota)
        #expect(passes(injected), "the answer is made here and answered by RenderStage, past the token stage")
        let answered = try #require(run(stage, MockRequest(method: "GET", target: "/", headers: [("X-Accord-Inject", "banned")]), quota).1.injection?.answer)
        #expect(answered.json?["code"] == .int(1008))
        #expect(answered.json?["data"]?["ban_info"]?["reason"] == .string("banned by an injected answer"))
        // A code whose table entry declares data answers a value of it when the injection gives none.
        let frequent = try #require(run(stage, MockRequest(method: "GET", target: "/", headers: [("X-Accord-Inject", "sms-too-frequent")]), quota)
            .1.injection?.answer)
        #expect(frequent.json?["data"] == .object([.init("retry_after_seconds", .int(1))]))
        let (latency, delayed) = try run(stage, MockRequest(method: "GET", target: "/", headers: [("X-Accord-Inject", "latency:250ms")]), quota)
        #expect(passes(latency))
        #expect(delayed.injection?.delayMilliseconds == 250)
        #expect(delayed.injection?.source == "header")
        let (reset, faulted) = try run(stage, MockRequest(method: "GET", target: "/", headers: [("X-Accord-Inject", "reset")]), quota)
        #expect(passes(reset))
        #expect(faulted.fault == .connectionReset)
        let unknown = try answer(run(stage, MockRequest(method: "GET", target: "/", headers: [("X-Accord-Scenario", "nope")]), quota).0)
        #expect(unknown.json?["data"]?["error"] == .string("invalid_injection"))
    }

    @Test func theChoiceStageDraftsTheAnswerAndTheRenderStageWritesIt() throws {
        var fixture = try EngineFixture()
        let stages = fixture.engine.pipeline.stages
        let choice = try #require(stages.compactMap { $0 as? ChoiceStage }.first)
        let render = try #require(stages.compactMap { $0 as? RenderStage }.first)
        let (result, exchange) = try run(choice, fixture.signed("GET", "/api/v1/signals/quota"), try route("signal.quota"))
        #expect(passes(result))
        #expect(exchange.draft?.answer.label == "example:default")
        var drafted = exchange
        drafted.passed = false
        let (rendered, passed) = try run(render, &drafted)
        #expect(!passed)
        #expect(rendered.summary.source == "example:default")
        #expect(rendered.json?["data"]?["daily_limit"] == .int(20))
    }

    func tokenStage() -> TokenStage {
        TokenStage(grant: TokenGrant(tokens: state.tokens, auth: contract.service.auth, envelopes: envelopes), authHeader: "authorization",
                   dataMember: contract.service.envelope?.data)
    }

    @Test func tokenFlowsIssueForLoginsRefuseBannedUsersAndRevokeOnLogout() throws {
        let stage = tokenStage()
        let login = try route("auth.login-phone")
        let fixtureAnswer = MockResponse(status: 200, body: .bytes(Array(#"{"code":0,"msg":"ok","data":{"access_token":"at_fixture","user":{"uid":5}}}"#.utf8)),
                                         summary: .init(code: 0, verdict: .ok))
        var exchange = Exchange(request: MockRequest(method: "POST", target: "/"))
        exchange.route = login
        let (answer, passed) = try run(stage, &exchange, rest: fixtureAnswer)
        #expect(passed)
        guard case .string(let issued)? = answer.json?["data"]?["access_token"] else {
            Issue.record("no token")
            return
        }
        #expect(issued != "at_fixture")
        #expect(exchange.user == 5)
        #expect(try state.tokens.verdict(authorization: "Bearer \(issued)", scheme: "Bearer") == .valid(uid: 5))
        try state.tokens.setBan(UserBan(reason: "spam"), uid: 5)
        #expect(try run(stage, &exchange, rest: fixtureAnswer).response.json?["code"] == .int(1008))
        var logout = Exchange(request: MockRequest(method: "POST", target: "/", headers: [("Authorization", "Bearer \(issued)")]))
        logout.route = try route("auth.logout")
        #expect(try run(stage, &logout).passed)
        #expect(try state.tokens.verdict(authorization: "Bearer \(issued)", scheme: "Bearer") == .revoked(uid: 5))
    }

    /// The token stage acts on the answer the client gets: a logout whose answer a slow
    /// body delivers revokes its token, one whose answer a reset loses does not.
    @Test func aLogoutRevokesItsTokenWheneverItsAnswerIsDelivered() throws {
        let stage = tokenStage()
        for (fault, revokes) in [(Injection.Fault.slowBody(chunkDelayMilliseconds: 10), true), (.connectionReset, false), (.httpStatus(503), false)] {
            let pair = try state.tokens.issue(uid: 8)
            var logout = Exchange(request: MockRequest(method: "POST", target: "/", headers: [("Authorization", "Bearer \(pair.accessToken)")]))
            logout.route = try route("auth.logout")
            logout.injection = Injected(action: .fault(fault), source: "header")
            _ = try run(stage, &logout)
            let verdict = try state.tokens.verdict(authorization: "Bearer \(pair.accessToken)", scheme: "Bearer")
            #expect(verdict == (revokes ? .revoked(uid: 8) : .valid(uid: 8)), "\(fault)")
        }
    }

    @Test func faultsReplaceOrDelayTheAnswer() throws {
        let stage = FaultStage(state: state)
        var exchange = Exchange(request: MockRequest(method: "GET", target: "/"))
        var injected = Injected(action: .fault(.httpStatus(503)), source: "header")
        injected.delayMilliseconds = 5
        exchange.injection = injected
        let rest = MockResponse(status: 200, body: .bytes(Array("{}".utf8)), delayMilliseconds: 10, summary: .init(code: 0, verdict: .ok))
        let (response, passed) = try run(stage, &exchange, rest: rest)
        #expect(passed)
        #expect(response.status == 503)
        #expect(response.header("retry-after") == "5")
        #expect(response.text == "Service Unavailable")
        #expect(response.delayMilliseconds == 15)
        #expect(response.summary.verdict == .fault)
    }

    // MARK: On the way out

    @Test func corsAddsTheOriginOnceToBrowserRequests() throws {
        let stage = CORSStage(router: Router(contract: contract), service: contract.service, allowOrigin: "https://app.example", envelopes: envelopes)
        var plain = Exchange(request: MockRequest(method: "GET", target: "/"))
        #expect(try run(stage, &plain).response.headers.isEmpty)
        var browser = Exchange(request: MockRequest(method: "GET", target: "/", headers: [("Origin", "https://app.example")]))
        let answered = MockResponse(status: 200, headers: [("Access-Control-Allow-Origin", "https://other.example")], summary: .init(verdict: .ok))
        #expect(try run(stage, &browser, rest: answered).response.headers.map(\.value) == ["https://other.example"], "never two")
        #expect(try run(stage, &browser).response.headers.map(\.name) == ["Access-Control-Allow-Origin", "Vary"])
    }

    @Test func theJournalFilesWhoAskedAndWhatAnswered() throws {
        let stage = JournalStage(journal: state.journal, clock: state.clock, feed: state.events)
        var exchange = Exchange(request: MockRequest(method: "GET", target: "/api/v1/signals/quota", headers: [("X-Accord-Session", "s1")]))
        exchange.identify(9)
        exchange.route = try route("signal.quota")
        exchange.injection = Injected(action: .business(code: 3008, message: nil, data: nil), source: "rule:2")
        _ = try run(stage, &exchange, rest: MockResponse(status: 200, summary: .init(source: "injected", code: 3008, verdict: .injected)))
        let entry = try state.journal.entries().last
        #expect(entry?.session == "s1")
        #expect(entry?.user == 9)
        #expect(entry?.endpoint == "signal.quota")
        #expect(entry?.injected == "rule:2")
        #expect(entry?.json["verdict"] == .string("injected"))
    }

    @Test func theJournalListsTheTypedViolationsOfARefusal() throws {
        let journal = JournalStage(journal: state.journal, clock: state.clock, feed: state.events)
        let validation = ValidationStage(validator: RequestValidator(contract: contract), envelopes: envelopes)
        var exchange = Exchange(request: MockRequest(method: "GET", target: "/api/v1/signals/inbox?limit=x"))
        exchange.route = try route("signal.inbox")
        _ = try journal.respond(to: &exchange, next: Next([validation]))
        let problems = try #require(state.journal.entries().last?.problems)
        #expect(problems.map(\.pointer) == exchange.refusal?.violations.map(\.pointer))
        #expect(problems.contains { $0.pointer == "/query/limit" })
    }

    @Test func aCredentialKeepsItsFirstWordByteForByteAndNothingElse() {
        // A combining mark after the space makes one character with it: the scheme is cut on bytes.
        #expect(Array(JournalEntry.maskedValue(of: "authorization", "Bearer \u{0301}secret").utf8) == Array("Bearer <masked>".utf8))
        #expect(JournalEntry.maskedValue(of: "authorization", "secret") == "<masked>")
        #expect(JournalEntry.maskedValue(of: "proxy-authorization", "Digest a=b c=d") == "Digest <masked>")
        // A scheme past a small string's 15 bytes, and not ASCII; a value that starts with its space; an empty one.
        #expect(JournalEntry.maskedValue(of: "authorization", "Schème-Über-Lång token") == "Schème-Über-Lång <masked>")
        #expect(JournalEntry.maskedValue(of: "cookie", " a=b") == " <masked>")
        #expect(JournalEntry.maskedValue(of: "x-accord-admin-token", "") == "<masked>")
        // Names as long as a credential's, and names that only start like one, are shown as they came.
        #expect(JournalEntry.maskedValue(of: "x-app-version", "1.2.0") == "1.2.0")
        #expect(JournalEntry.maskedValue(of: "x-sign", "abc def") == "abc def")
        #expect(JournalEntry.maskedValue(of: "authorizatio", "Bearer x") == "Bearer x")
    }

    @Test func theJournalWritesCredentialsMaskedAndEveryOtherHeaderAsItCame() throws {
        let stage = JournalStage(journal: state.journal, clock: state.clock, feed: state.events)
        var exchange = Exchange(request: MockRequest(method: "GET", target: "/api/v1/signals/quota", headers: [
            ("Authorization", "Bearer eyJ.secret"), ("Cookie", "sid=secret"), ("X-Accord-Admin-Token", "secret"),
            ("Proxy-Authorization", "Basic c2VjcmV0"), ("X-Nonce", "n1"),
        ]))
        exchange.route = try route("signal.quota")
        _ = try run(stage, &exchange)
        let entry = try #require(try state.journal.entries().last)
        let written = String(decoding: entry.bytes, as: UTF8.self)
        #expect(!written.contains("secret") && !written.contains("c2VjcmV0"))
        #expect(entry.json["headers"] == .object([
            .init("authorization", .string("Bearer <masked>")), .init("cookie", .string("<masked>")),
            .init("x-accord-admin-token", .string("<masked>")), .init("proxy-authorization", .string("Basic <masked>")),
            .init("x-nonce", .string("n1")),
        ]))
        #expect(written.contains(#""time":"2026-11-30T08:00:00Z""#))
    }
}
