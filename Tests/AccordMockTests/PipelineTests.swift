import AccordContract
import AccordHTTP
import AccordJSON
@testable import AccordMocksFormat
import AccordMockState
import AccordSync
import AccordTesting
import Testing
@testable import AccordMock

/// The same engine, each stage made to fail in turn: the request ends at that stage,
/// no later stage runs, and every response stage (the journal) still does.
@Suite struct PipelineTests {
    /// The names of the stages that ran, in order.
    final class StageLog: Sendable {
        private let names = Locked<[String]>([])
        func append(_ name: String) { names.withLock { $0.append(name) } }
        var all: [String] { names.withLock { $0 } }
    }

    /// A stage that notes its name before it runs.
    struct Recorded: Stage {
        let stage: any Stage
        let log: StageLog
        func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
            log.append(String(describing: type(of: stage)))
            return try stage.respond(to: &exchange, next: next)
        }
    }

    /// Runs `request` through the fixture's pipeline with every stage recorded.
    func stages(_ fixture: EngineFixture, _ request: MockRequest) -> (response: MockResponse, ran: [String]) {
        let log = StageLog()
        var pipeline = fixture.engine.pipeline
        pipeline.stages = pipeline.stages.map { Recorded(stage: $0, log: log) }
        return (pipeline.run(request), log.all)
    }

    /// Every stage in order; a storage that reads ahead (Redis) previews the request once it is routed.
    static let order = ["JournalStage", "ReportStage", "StorageGuardStage", "FramingStage", "CORSStage", "SteeringStage", "RouteStage",
                        "BodyLimitStage"] + (StorageDriver.forEngines == .redis ? ["PreviewStage"] : [])
        + ["BodyStage", "SignatureStage", "AuthenticationStage", "ValidationStage", "InjectionStage",
           "ChoiceStage", "TokenStage", "FaultStage", "UploadStage", "EffectStage", "RenderStage"]

    /// The stages up to and including `last`.
    static func through(_ last: String) -> [String] {
        Array(order.prefix { $0 != last }) + [last]
    }

    @Test func aRequestThatPassesEveryStageRunsThemAllInOrder() throws {
        var fixture = try EngineFixture()
        let (response, ran) = stages(fixture, fixture.signed("GET", "/api/v1/signals/quota"))
        #expect(response.status == 200)
        #expect(ran == Self.order)
    }

    @Test func eachFailingStageEndsTheRequestBeforeTheNext() throws {
        var fixture = try EngineFixture()
        var remote = fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Inject", "3008")])
        remote.isFromLoopback = false
        var framed = fixture.signed("GET", "/api/v1/signals/quota")
        framed.framingProblem = "both Content-Length and Transfer-Encoding"
        let large = MockRequest(method: "POST", target: "/api/v1/signals", bodyLimitExceeded: true)
        let cases: [(request: MockRequest, status: Int, verdict: Verdict, ran: [String])] = [
            (remote, 403, .forbidden, Self.through("SteeringStage")),
            (framed, 400, .malformed, Self.through("FramingStage")),
            (MockRequest(method: "OPTIONS", target: "/api/v1/signals/quota"), 204, .options, Self.through("CORSStage")),
            (large, 413, .tooLarge, Self.through("BodyLimitStage")),
            (fixture.signed("GET", "/api/v1/signals/nope/nope"), 404, .noRoute, Self.through("RouteStage")),
            (fixture.signed("POST", "/api/v1/signals", body: #"{"content":"#), 400, .malformed, Self.through("BodyStage")),
            (MockRequest(method: "GET", target: "/api/v1/signals/quota"), 200, .badSignature, Self.through("SignatureStage")),
            (fixture.signed("GET", "/api/v1/signals/quota", bearer: .none), 200, .unauthorized, Self.through("AuthenticationStage")),
            (fixture.signed("GET", "/api/v1/signals/inbox?limit=x"), 400, .invalid, Self.through("ValidationStage")),
            // An injected answer is rendered last, past the token and fault stages (which see it on its way back).
            (fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Inject", "3008")]), 200, .injected, Self.order),
            (fixture.signed("GET", "/api/v1/signals/quota", headers: [("Prefer", "example=nope")]), 400, .noExample,
             Self.through("ChoiceStage")),
            (fixture.signed("POST", "/api/v1/auth/token/refresh", body: #"{"refresh_token":"rt_unknown"}"#, bearer: .none), 200,
             .unauthorized, Self.through("TokenStage")),
        ]
        for (request, status, verdict, expected) in cases {
            let (response, ran) = stages(fixture, request)
            #expect(response.status == status, "\(request.method) \(request.path): \(response.text)")
            #expect(response.summary.verdict == verdict, "\(request.method) \(request.path)")
            #expect(ran == expected, "\(request.method) \(request.path)")
        }
        #expect(try fixture.state.journal.entries().count == cases.count)
    }

    @Test func aStageThatEndsTheRequestLeavesTheStateOfLaterStagesUntouched() throws {
        var fixture = try EngineFixture()
        _ = try fixture.state.rules.add(InjectionRule(endpoint: "signal.inbox", action: .business(code: 3008, message: nil, data: nil), times: 1))
        // Validation fails: the rule of the injection stage is not spent.
        let invalid = fixture.handle(fixture.signed("GET", "/api/v1/signals/inbox?limit=x"))
        #expect(invalid.summary.verdict == .invalid)
        #expect(try fixture.state.rules.all.count == 1)
        // A replayed nonce fails the signature stage: nothing is authenticated or answered.
        let signed = fixture.signed("GET", "/api/v1/signals/inbox")
        #expect(fixture.handle(signed).summary.verdict == .injected)
        #expect(try fixture.state.rules.all.isEmpty)
        let replay = fixture.handle(signed)
        #expect(replay.summary.verdict == .replay)
        #expect(try fixture.state.journal.entries().last?.user == nil)
    }

    /// The journal keeps a body up to 4 KiB of compact JSON, else only its size; a small
    /// body is kept without being measured, a large one is measured as written.
    @Test func theJournalKeepsSmallBodiesAndOnlyTheSizeOfLargeOnes() {
        let small = JSONValue.object([.init("content", .string("你好"))])
        #expect(JournalEntry.Body(small, received: 20) == .json(small))
        let spaced = JSONValue.object([.init("content", .string(String(repeating: "a", count: 100)))])
        #expect(JournalEntry.Body(spaced, received: 3_000) == .json(spaced))
        let large = JSONValue.object([.init("content", .string(String(repeating: "a", count: 5_000)))])
        #expect(JournalEntry.Body(large, received: 5_016) == .omitted(bytes: 5_014))
    }

    /// An injected answer is rendered last, so every stage that acts on the way back sees
    /// it: CORS adds its header, the journal and the report file it as injected, and the
    /// token stage completes the flow of an injected success (a refresh rotates its pair).
    @Test func everyStageOnTheWayBackSeesInjectedAnswers() throws {
        var fixture = try EngineFixture()
        let quota = fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Inject", "3008"), ("Origin", "https://app.example")])
        let injected = fixture.handle(quota)
        #expect(injected.code == .int(3008))
        #expect(injected.header("access-control-allow-origin") == "*")
        #expect(try fixture.state.journal.entries().last?.injected == "header")
        #expect(fixture.state.observations.snapshot.endpoints["signal.quota"]?.injected == 1)

        let pair = try fixture.state.tokens.issue(uid: 42)
        let data = JSONValue.object([.init("access_token", .string("at_injected")), .init("refresh_token", .string("rt_injected")),
                                     .init("access_expires_in", .int(1)), .init("refresh_expires_in", .int(1))])
        _ = try fixture.state.rules.add(InjectionRule(endpoint: "auth.refresh", action: .business(code: 0, message: nil, data: data), times: 1))
        let refresh = fixture.signed("POST", "/api/v1/auth/token/refresh", body: #"{"refresh_token":"\#(pair.refreshToken)"}"#, bearer: .none)
        let rotated = fixture.handle(refresh)
        #expect(rotated.code == .int(0), "\(rotated.text)")
        #expect(try fixture.state.tokens.refresh(pair.refreshToken) == nil, "the injected success rotated the pair")
        guard case .string(let access)? = rotated.json?["data"]?["access_token"] else {
            Issue.record("the injected answer carries no issued token: \(rotated.text)")
            return
        }
        #expect(try fixture.state.tokens.verdict(authorization: "Bearer \(access)", scheme: "Bearer") == .valid(uid: 42))
    }
}
