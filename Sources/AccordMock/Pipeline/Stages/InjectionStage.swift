import AccordContract
import AccordJSON

/// Finds what a tester injected into this request, in this order: its
/// `X-Accord-Inject` header, the first standing rule that fires, its session's
/// scenario step. A business code answers here; latency is drawn here and added by
/// ``FaultStage``; another fault is handed on to it.
struct InjectionStage: RoutedStage {
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

    init(state: MockState, contract: Contract, scenarios: [String: Scenario], defaultScenario: String?, envelopes: Envelopes) {
        self.state = state
        codes = contract.service.codes
        self.scenarios = scenarios
        self.defaultScenario = defaultScenario
        self.envelopes = envelopes
        let generator = ResponseGenerator(types: contract.types)
        payloads = Dictionary(uniqueKeysWithValues: codes.compactMap { code in code.data.map { (code.code, generator.value(for: $0)) } })
    }

    func run(_ exchange: inout Exchange, route: Route) -> StageResult {
        let injection: Injection?
        do {
            injection = try find(for: &exchange, endpoint: route.endpoint.id)
        } catch {
            return .answer(envelopes.refusal(status: 400, kind: "invalid_injection", error.message, endpoint: route.endpoint.id,
                                             verdict: .invalid))
        }
        switch injection {
        case nil:
            return .proceed
        case .fault(.latency(let range))?:
            exchange.addedDelay = state.random(in: range)
            return .proceed
        case .fault(let fault)?:
            exchange.fault = fault
            return .proceed
        case .business(let code, let message, let data)?:
            let banned = envelopes.codes[.banned]
            let defaultData: JSONValue? = code == banned
                ? .object([.init("ban_info", TokenStore.Ban(reason: "banned by an injected answer").json)]) : nil
            var response = envelopes.answer(code: code, message: message, fallback: code == 0 ? "ok" : "injected",
                                            data: data ?? defaultData ?? payloads[code] ?? .object([]), endpoint: route.endpoint.id, verdict: .injected)
            response.summary.source = "injected"
            return .answer(response)
        }
    }

    private func find(for exchange: inout Exchange, endpoint: String) throws(Injection.SyntaxError) -> Injection? {
        let request = exchange.request
        if let header = request.headers[Self.header] {
            exchange.injected = "header"
            return try Injection(parsing: header, codes: codes)
        }
        if let rule = state.rules.fire(endpoint: endpoint, user: exchange.user, session: exchange.session) {
            exchange.injected = "rule:\(rule.id)"
            return rule.action
        }
        guard let name = request.headers[Self.scenarioHeader] ?? state.scenarios.startedScenario(session: exchange.session) ?? defaultScenario else {
            return nil
        }
        guard let scenario = scenarios[name] else {
            throw Injection.SyntaxError(message: "unknown scenario '\(name)'\(NameSuggestion.hint(for: name, in: scenarios.keys.sorted())); "
                                        + "scenarios: \(scenarios.keys.sorted().joined(separator: ", "))")
        }
        guard let (index, step) = state.scenarios.step(for: endpoint, session: exchange.session, scenario: scenario) else { return nil }
        exchange.injected = "scenario:\(name)#\(index + 1)"
        exchange.fixture = step.fixture
        return step.action
    }
}
