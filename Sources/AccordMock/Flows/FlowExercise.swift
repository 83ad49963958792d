import AccordContract
import AccordFlowConformance
import AccordMockState
import AccordMocksFormat

/// The built-in scenarios `exercise-flows` and `exercise-flows-random`: each session's
/// calls of each endpoint meet the flows the contract declares for it (``DeclaredFlow``).
/// The first call is answered the first flow's code (a 502 for the retry flow), the next
/// call normally (the retry or the next try the flow asks for), the third the second
/// flow's code, and so on; then every call passes. One run of an app's UI tests covers the
/// matrix of the flow report without a scenario per flow. `exercise-flows` takes each
/// endpoint's flows in the matrix's order; `exercise-flows-random` in an order drawn from
/// `--seed` and the session's name, the same in every run and on every replica. Each
/// endpoint's progress is kept as a session of the scenario storage of its own, so it
/// holds across replicas too.
struct FlowExercise: Sendable {
    /// The names that run it wherever a scenario is named, in turn and shuffled.
    static let name = Scenario.exerciseName
    static let shuffledName = Scenario.shuffledExerciseName
    /// What `--scenario`, `X-Accord-Scenario` and `POST /__accord/sessions/{session}/scenario` know them by.
    static let placeholders = [
        name: Scenario(name: name, description: "Each endpoint's calls meet each flow the contract declares for it in turn.", steps: []),
        shuffledName: Scenario(name: shuffledName, description: "Each endpoint's calls meet each flow the contract declares for it, "
                               + "in an order drawn from --seed and the session.", steps: []),
    ]

    /// Each endpoint's injections, one for every flow it declares, in the matrix's order.
    private let injections: [String: [Scenario.Step]]
    /// The seed of `exercise-flows-random`'s order.
    private let seed: UInt64

    init(contract: Contract, seed: UInt64) {
        var injections: [String: [Scenario.Step]] = [:]
        for declared in DeclaredFlow.all(in: contract) {
            let endpoint = declared.pair.endpoint
            // A 502 for the retry flow: it asks for no wait (a 503's Retry-After does), and no HTTP stack resends it by itself.
            let action: Injection = declared.entry.map { .business(code: $0.code, message: nil, data: $0.discriminatingData) } ?? .fault(.httpStatus(502))
            injections[endpoint, default: []].append(Scenario.Step(endpoint: endpoint, action: action))
        }
        self.injections = injections
        self.seed = seed
    }

    /// The steps `session`'s calls of `endpoint` take under the exercise `name`: each
    /// flow's injection followed by a call let through; nil for an endpoint without flows.
    func scenario(_ name: String, endpoint: String, session: String) -> Scenario? {
        guard var order = injections[endpoint] else { return nil }
        if name == Self.shuffledName {
            var random = SplitMix(seed: SplitMix.seed(seed, mixedWith: session + "\u{1F}" + endpoint))
            order.shuffle(using: &random)
        }
        return Scenario(name: "\(name):\(endpoint)", steps: order.flatMap { [$0, Scenario.Step(endpoint: endpoint, action: nil)] })
    }

    /// The scenario session that keeps `session`'s progress through `endpoint` under the exercise `name`.
    static func progressKey(_ name: String, session: String, endpoint: String) -> String {
        "\(session)\u{1F}\(name):\(endpoint)"
    }
}
