import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordMockState
import AccordTesting
import Foundation
import Testing

/// The proxy's decisions, in-process: what is answered here, what is forwarded, and how
/// an upstream's answer is judged, journaled and reported.
@Suite struct ForwardingGateTests {
    private let loginBody = #"{"phone":"13800138000","code":"123456","device_info":{"device_id":"D-1","os":"ios","os_version":"26.1","model":"iPhone","app_version":"1.2.0"}}"#

    private func gate(_ mode: ForwardingGate.Mode, _ fixture: EngineFixture) -> ForwardingGate {
        ForwardingGate(engine: fixture.engine, mode: mode)
    }

    private func forwardedOn(_ admission: ForwardingGate.Admission) -> Forwarding? {
        if case .forward(let forwarding) = admission { return forwarding }
        return nil
    }

    private func answeredHere(_ admission: ForwardingGate.Admission) -> MockResponse? {
        if case .answer(let response) = admission { return response }
        return nil
    }

    /// An upstream's answer as the proxy hands it to the gate.
    private func upstream(_ body: String, status: Int = 200, contentType: String = "application/json") -> MockResponse {
        MockResponse(status: status, headers: [("Content-Type", contentType)], body: .bytes(Array(body.utf8)),
                     summary: .init(source: "upstream", verdict: .ok))
    }

    @Test func strictModeRefusesWithTheMocksOwnAnswer() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        let bad = #"{"phone":"12","code":"123456","device_info":{"device_id":"D-1","os":"ios","os_version":"26.1","model":"iPhone","app_version":"1.2.0"}}"#
        let request = fixture.signed("POST", "/api/v1/auth/login/phone", body: bad, bearer: .none)
        let refused = try #require(answeredHere(gate(.strict, fixture).admit(request)))
        let mock = fixture.handle(fixture.signed("POST", "/api/v1/auth/login/phone", body: bad, bearer: .none))
        #expect(refused.status == mock.status)
        #expect(refused.text == mock.text)
        #expect(refused.summary.verdict == .invalid)
    }

    @Test func reportModeForwardsABadRequestWithItsProblems() throws {
        var fixture = try EngineFixture()
        let request = fixture.signed("POST", "/api/v1/signals", body: #"{"contents":"hi","is_flash":false}"#)
        let forwarded = try #require(forwardedOn(gate(.report, fixture).admit(request)))
        #expect(forwarded.endpoint?.id == "signal.publish")
        #expect(forwarded.refusal?.summary.verdict == .invalid)
        #expect(forwarded.violationCount(AnswerCheck(code: 0, violations: [])) == 2)
    }

    /// The first check that refuses is the one noted; the later ones do not run on a refused request.
    @Test func reportModeNotesTheFirstRefusal() throws {
        let fixture = try EngineFixture()
        let unsigned = MockRequest(method: "POST", target: "/api/v1/signals", headers: [("Content-Type", "application/json")],
                                   body: Array(#"{"contents":"hi"}"#.utf8))
        let forwarded = try #require(forwardedOn(gate(.report, fixture).admit(unsigned)))
        #expect(forwarded.refusal?.summary.verdict == .badSignature, "the signature, not the body's violations after it")
        #expect(forwarded.violationCount(AnswerCheck(code: 0, violations: [])) == 1)
    }

    @Test func aTokenIsCheckedForItsShapeOnly() throws {
        var fixture = try EngineFixture()
        let gate = gate(.strict, fixture)
        // Tokens another server issued pass; a missing one is the upstream's to answer.
        #expect(forwardedOn(gate.admit(fixture.signed("GET", "/api/v1/signals/quota", bearer: .token("at_issued.elsewhere+/=="))))?.refusal == nil)
        #expect(forwardedOn(gate.admit(fixture.signed("GET", "/api/v1/signals/quota", bearer: .none)))?.refusal == nil)
        for (value, message) in [("Basic abc", "Authorization does not start with 'Bearer '"),
                                 ("Bearer ", "Authorization carries no token after 'Bearer '"),
                                 ("Bearer a b", "Authorization carries a token with characters outside A-Z a-z 0-9 - . _ ~ + / (and trailing =)")] {
            let request = fixture.signed("GET", "/api/v1/signals/quota", headers: [("Authorization", value)], bearer: .none)
            let refused = try #require(answeredHere(gate.admit(request)), "\(value)")
            #expect(refused.summary.verdict == .badToken)
            #expect(refused.json?["msg"] == .string(message))
        }
    }

    @Test func injectionAnswersHereOrSpoilsTheUpstreamsAnswer() throws {
        var fixture = try EngineFixture()
        let gate = gate(.report, fixture)
        let banned = try #require(answeredHere(gate.admit(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Inject", "1008")]))))
        #expect(banned.code == .int(1008))
        #expect(banned.summary.verdict == .injected)
        let reset = try #require(forwardedOn(gate.admit(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Inject", "malformed")]))))
        #expect(reset.spoilsAnswer)
        let answer = upstream(#"{"code":0,"msg":"ok","data":{"daily_limit":20,"used":1,"remaining":19}}"#)
        let spoiled = gate.prepare(answer, for: reset)
        #expect(spoiled.bodyBytes.count == answer.bodyBytes.count / 2)
        #expect(spoiled.summary.verdict == .fault)
    }

    @Test func unknownRoutesAndOptionsAreForwarded() throws {
        let fixture = try EngineFixture()
        let gate = gate(.strict, fixture)
        let unknown = try #require(forwardedOn(gate.admit(MockRequest(method: "GET", target: "/api/v2/novel"))))
        #expect(unknown.endpoint == nil)
        gate.record(upstream("{}"), for: unknown, check: gate.check(upstream("{}"), for: unknown))
        #expect(fixture.engine.report().unknownRoutes.map(\.route) == ["GET /api/v2/novel"])
        let options = try #require(forwardedOn(gate.admit(MockRequest(method: "OPTIONS", target: "/api/v1/signals"))))
        gate.record(upstream(""), for: options, check: gate.check(upstream(""), for: options))
        #expect(try fixture.state.journal.entries().count == 1)
        #expect(answeredHere(gate.admit(MockRequest(method: "GET", target: "/__accord/rules")))?.summary.verdict == .control)
    }

    @Test func aDriftingAnswerIsJournaledAndReportedOnItsSide() throws {
        var fixture = try EngineFixture()
        let gate = gate(.report, fixture)
        let forwarded = try #require(forwardedOn(gate.admit(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Session", "s1")]))))
        let answer = upstream(#"{"code":0,"msg":"ok","data":{"daily_limit":"20","used":1,"resets_at":"2026-12-01T00:00:00Z"}}"#)
        let check = gate.check(answer, for: forwarded)
        #expect(check.code == 0)
        #expect(check.violations.map(\.pointer) == ["/data/daily_limit"])
        let recorded = gate.record(answer, for: forwarded, check: check)
        #expect(recorded.summary.verdict == .drift)
        #expect(recorded.summary.problems == 1)
        let entry = try #require(fixture.state.journal.entries(session: "s1").last)
        #expect(entry.problems == [JournalEntry.Problem(side: .response, pointer: "/data/daily_limit",
                                                        message: "expected integer, found a string \"20\"")])
        let quota = try #require(fixture.engine.report().endpoints.first { $0.endpoint.id == "signal.quota" })
        #expect(quota.tally.failures.map(\.side) == [.response])
        #expect(quota.tally.failures.first?.kind == "response (0)")
    }

    @Test func anUpstreamFailureIsAnEnvelopeNamingTheCause() throws {
        var fixture = try EngineFixture()
        let gate = gate(.report, fixture)
        let forwarded = try #require(forwardedOn(gate.admit(fixture.signed("GET", "/api/v1/signals/quota"))))
        let failure = gate.upstreamFailure(.timeout, message: "no answer within 500 ms", for: forwarded)
        #expect(failure.status == 504)
        #expect(failure.json?.value(at: "/data/error") == .string("upstream_timeout"))
        #expect(failure.json?["msg"] == .string("no answer within 500 ms"))
        let saturated = gate.upstreamFailure(.saturated, message: "busy", for: forwarded)
        #expect(saturated.status == 503)
        #expect(saturated.header("Retry-After") == "1")
        #expect(try fixture.state.journal.entries().map(\.verdict) == [.upstreamFailed, .upstreamFailed])
    }
}
