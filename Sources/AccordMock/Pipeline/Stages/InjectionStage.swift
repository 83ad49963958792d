import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordMocksFormat

/// Finds what a tester injected into this request, in this order: its
/// `X-Accord-Inject` header, the first standing rule that fires, its session's
/// scenario step (``Exchange/injection``). Latency is drawn here and a business code's
/// answer made here; ``FaultStage`` adds the one and spoils the answer with a fault,
/// ``RenderStage`` answers the other, so ``TokenStage`` sees them both.
struct InjectionStage: Stage {
    /// The header that injects an answer into one request.
    static let header = "x-accord-inject"
    /// The header that runs a scenario for the request's session.
    static let scenarioHeader = "x-accord-scenario"

    let state: MockState
    let codes: [BusinessCode]
    let scenarios: [String: Scenario]
    /// The scenario of requests that name none.
    let defaultScenario: String?
    let envelopes: Envelopes
    /// The `data` an injected code answers when the rule gives none: a value of the
    /// payload the code table declares for it (``BusinessCode/data``), made once.
    private let payloads: [Int: JSONValue]
    /// The steps of the built-in `exercise-flows` scenarios, made once.
    private let exercise: FlowExercise

    init(state: MockState, contract: Contract, scenarios: [String: Scenario], defaultScenario: String?, envelopes: Envelopes, seed: UInt64) {
        self.state = state
        codes = contract.service.codes
        self.scenarios = scenarios
        self.defaultScenario = defaultScenario
        self.envelopes = envelopes
        let generator = ResponseGenerator(types: contract.types)
        payloads = Dictionary(uniqueKeysWithValues: codes.compactMap { code in code.data.map { (code.code, generator.value(for: $0)) } })
        exercise = FlowExercise(contract: contract, seed: seed)
    }

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard let route = exchange.route else { return try next(&exchange) }
        switch try find(for: exchange, endpoint: route.endpoint.id) {
        case .success(let injected):
            exchange.injection = injected
        case .failure(let error):
            if exchange.request.headers[Self.header] != nil { exchange.injection = Injected(action: nil, source: "header") }
            return envelopes.refuse(&exchange, status: 400, kind: "invalid_injection", error.message, verdict: .invalid)
        }
        switch exchange.injection?.action {
        case .latency(let range)?:
            exchange.injection?.delayMilliseconds = state.random(in: range)
        case .business(let code, let message, let data)?:
            let banned = envelopes.codes[.banned]
            let defaultData: JSONValue? = code == banned
                ? .object([.init("ban_info", UserBan(reason: "banned by an injected answer").json)]) : nil
            var response = envelopes.answer(code: code, message: message, fallback: code == 0 ? "ok" : "injected",
                                            data: data ?? defaultData ?? payloads[code] ?? .object([]), verdict: .injected)
            response.summary.source = "injected"
            exchange.injection?.answer = response
        case .fault?, nil:
            break
        }
        return try next(&exchange)
    }

    /// What the request's header, a rule or its scenario injects; a header or scenario name that cannot be read fails.
    private func find(for exchange: Exchange, endpoint: String) throws(StorageError) -> Result<Injected?, Injection.SyntaxError> {
        let request = exchange.request
        if let header = request.headers[Self.header] {
            do {
                return .success(Injected(action: try Injection(parsing: header, codes: codes), source: "header"))
            } catch {
                return .failure(error)
            }
        }
        if let rule = try state.rules.fire(endpoint: endpoint, user: exchange.user, session: exchange.session) {
            return .success(Injected(action: rule.action, source: "rule:\(rule.id)"))
        }
        var named = request.headers[Self.scenarioHeader]
        if named == nil { named = try state.scenarios.startedScenario(session: exchange.session) }
        guard let name = named ?? defaultScenario else { return .success(nil) }
        if Scenario.builtInNames.contains(name) {
            guard let scenario = exercise.scenario(name, endpoint: endpoint, session: exchange.session),
                  let (index, step) = try state.scenarios.step(for: endpoint, session: FlowExercise.progressKey(name, session: exchange.session, endpoint: endpoint),
                                                               scenario: scenario) else { return .success(nil) }
            return .success(Injected(action: step.action, source: "scenario:\(name):\(endpoint)#\(index + 1)"))
        }
        guard let scenario = scenarios[name] else {
            return .failure(Injection.SyntaxError(message: "unknown scenario '\(name)'\(NameSuggestion.hint(for: name, in: scenarios.keys.sorted())); "
                                        + "scenarios: \(scenarios.keys.sorted().joined(separator: ", "))"))
        }
        guard let (index, step) = try state.scenarios.step(for: endpoint, session: exchange.session, scenario: scenario) else { return .success(nil) }
        return .success(Injected(action: step.action, source: "scenario:\(name)#\(index + 1)", fixture: step.fixture))
    }
}
