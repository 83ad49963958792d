import AccordContract
import AccordFlowConformance
import AccordMocksFormat

/// The built-in scenario `exercise-flows`: each session's calls of each endpoint meet the
/// flows the contract declares for it (``DeclaredFlow``) in turn. The first call is
/// answered the first flow's code (a 502 for the retry flow), the next call normally
/// (the retry or the next try the flow asks for), the third the second flow's code, and
/// so on; then every call passes. One run of an app's UI tests covers the matrix of the
/// flow report without a scenario per flow. Each endpoint's progress is kept as a
/// session of the scenario storage of its own, so it holds across replicas too.
struct FlowExercise: Sendable {
    /// The name that runs it wherever a scenario is named.
    static let name = Scenario.exerciseName
    /// What `--scenario`, `X-Accord-Scenario` and `POST /__accord/sessions/{session}/scenario` know it by.
    static let placeholder = Scenario(name: name, description: "Each endpoint's calls meet each flow the contract declares for it in turn.",
                                      steps: [])

    /// Each endpoint's steps: a flow's injection, then a call let through, for every flow it declares.
    let scenarios: [String: Scenario]

    init(contract: Contract) {
        var steps: [String: [Scenario.Step]] = [:]
        for declared in DeclaredFlow.all(in: contract) {
            let endpoint = declared.pair.endpoint
            // A 502 for the retry flow: it asks for no wait (a 503's Retry-After does), and no HTTP stack resends it by itself.
            let action: Injection = declared.entry.map { .business(code: $0.code, message: nil, data: $0.discriminatingData) } ?? .fault(.httpStatus(502))
            steps[endpoint, default: []] += [Scenario.Step(endpoint: endpoint, action: action), Scenario.Step(endpoint: endpoint, action: nil)]
        }
        scenarios = Dictionary(uniqueKeysWithValues: steps.map { endpoint, steps in (endpoint, Scenario(name: "\(Self.name):\(endpoint)", steps: steps)) })
    }

    /// The scenario session `session`'s progress through `endpoint` is kept under.
    static func progressKey(session: String, endpoint: String) -> String {
        "\(session)\u{1F}\(name):\(endpoint)"
    }
}
