import AccordContract
import AccordFlowConformance
import AccordHTTP
import AccordMock
import AccordTesting
import Testing

/// The built-in scenario `exercise-flows`: every (endpoint, flow) pair the contract
/// declares, injected into each endpoint's calls in turn, per session (the retry flow as a 502).
@Suite struct FlowExerciseTests {
    @Test func theRepositorysContractDeclaresEachEndpointsFlows() {
        let declared = DeclaredFlow.all(in: Repository.contract)
        func flows(_ endpoint: String) -> [String] {
            declared.filter { $0.pair.endpoint == endpoint }.map { "\($0.pair.flow.rawValue)\($0.entry.map { " \($0.code)" } ?? "")" }
        }
        #expect(flows("signal.inbox") == ["refresh-and-retry 1002", "logout 1006", "ban 1008", "retry"])
        #expect(flows("signal.publish") == ["refresh-and-retry 1002", "logout 1006", "ban 1008", "alert 3008"])
        #expect(flows("auth.refresh") == ["logout 1007"])
        #expect(flows("auth.login-phone") == [])
        #expect(flows("app.start-config") == ["retry"])
        // Every endpoint declares one flow at least but the public POSTs, the logins and the logout; the count is the report's 'declared'.
        #expect(Set(Repository.contract.endpoints.map(\.id)).subtracting(declared.map(\.pair.endpoint)).sorted()
                == ["auth.login-apple", "auth.login-phone", "auth.logout", "auth.sms-send"])
        #expect(declared.count == 217)
    }

    @Test func eachEndpointsCallsMeetItsFlowsInTurnThenPass() throws {
        var fixture = try EngineFixture()
        let steering = [("X-Accord-Scenario", "exercise-flows"), ("X-Accord-Session", "ui-1")]
        func quota() -> String {
            let answer = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: steering))
            return answer.summary.verdict == .fault ? "fault" : answer.code.map { "\($0)" } ?? "none"
        }
        #expect(quota() == "int(1002)")
        // Another endpoint has a turn of its own.
        #expect(fixture.handle(fixture.signed("GET", "/api/v1/users/me", headers: steering)).code == .int(1002))
        #expect((0..<8).map { _ in quota() } == ["int(0)", "int(1006)", "int(0)", "int(1008)", "int(0)", "fault", "int(0)", "int(0)"])
        // Another session starts from the first flow.
        let other = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Scenario", "exercise-flows"), ("X-Accord-Session", "ui-2")]))
        #expect(other.code == .int(1002))
        let sources = try fixture.state.journal.entries().prefix(3).map(\.injected)
        #expect(sources == ["scenario:exercise-flows:signal.quota#1", "scenario:exercise-flows:user.me#1", "scenario:exercise-flows:signal.quota#2"])
    }

    /// `exercise-flows-random`: each session's calls of an endpoint meet the same flows,
    /// once each with a pass between them, in an order drawn from `--seed` and the session:
    /// the same for the same two, whatever else the server answered meanwhile.
    @Test func theRandomExerciseDrawsEachSessionsOrderFromTheSeed() throws {
        func flows(session: String, seed: UInt64) throws -> [String] {
            var options = MockOptions()
            options.seed = seed
            var fixture = try EngineFixture(options: options)
            let steering = [("X-Accord-Scenario", "exercise-flows-random"), ("X-Accord-Session", session)]
            return (0..<9).map { _ in
                let answer = fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: steering))
                return answer.summary.verdict == .fault ? "fault" : answer.code.map { "\($0)" } ?? "none"
            }
        }
        let inTurn = ["int(1002)", "int(1006)", "int(1008)", "fault"]
        var orders: Set<[String]> = []
        for session in (1...6).map({ "ui-\($0)" }) {
            let answers = try flows(session: session, seed: 7)
            #expect(try flows(session: session, seed: 7) == answers)
            let injected = stride(from: 0, to: 8, by: 2).map { answers[$0] }
            #expect(injected.sorted() == inTurn.sorted() && stride(from: 1, to: 9, by: 2).allSatisfy { answers[$0] == "int(0)" }, "\(answers)")
            orders.insert(injected)
        }
        // Six sessions do not all draw the matrix's own order, and another seed draws others.
        #expect(orders.count > 1 && orders != [inTurn])
        #expect(try (1...6).map { try flows(session: "ui-\($0)", seed: 8) } != (1...6).map { try flows(session: "ui-\($0)", seed: 7) })
    }

    @Test func theControlAPIStartsItForASession() throws {
        var fixture = try EngineFixture()
        let started = fixture.handle(MockRequest(method: "POST", target: "/__accord/sessions/ui-3/scenario", headers: [("Content-Type", "application/json")],
                                                 body: Array(#"{"name": "exercise-flows"}"#.utf8)))
        #expect(started.status == 200)
        #expect(fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Session", "ui-3")])).code == .int(1002))
        #expect(fixture.handle(fixture.signed("GET", "/api/v1/signals/quota", headers: [("X-Accord-Session", "ui-4")])).code == .int(0))
    }
}
