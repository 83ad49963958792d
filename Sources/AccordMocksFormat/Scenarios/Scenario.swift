import AccordContract
import AccordDiagnostics
import AccordYAML

/// An ordered script of answers for one session: each step waits for a request to
/// its endpoint and answers it (or lets it through); requests to other endpoints
/// pass untouched. `mocks/scenarios/NAME.yaml`.
public struct Scenario: Sendable {
    /// One step.
    public struct Step: Sendable {
        /// An endpoint id, `prefix.*` or `*`.
        public var endpoint: String
        /// What to answer; nil lets the request through to the normal answer.
        public var action: Injection?
        /// The fixture or example to answer with, by name, as `Prefer: example=NAME` picks one.
        public var fixture: String?
        /// The step stays current: it answers every request to its endpoint from then
        /// on (a ban that holds), and the steps after it are never reached.
        public var repeats = false

        public init(endpoint: String, action: Injection?, fixture: String? = nil, repeats: Bool = false) {
            self.endpoint = endpoint
            self.action = action
            self.fixture = fixture
            self.repeats = repeats
        }
    }

    public var name: String
    public var description: String?
    public var steps: [Step]

    /// The name of `accord serve`'s built-in exercise of every declared flow, which no file may take.
    public static let exerciseName = "exercise-flows"
    /// The same exercise with each endpoint's flows in an order drawn from `--seed` and the session's name.
    public static let shuffledExerciseName = "exercise-flows-random"
    /// The built-in scenarios' names.
    public static let builtInNames: Set<String> = [exerciseName, shuffledExerciseName]

    public init(name: String, description: String? = nil, steps: [Step]) {
        self.name = name
        self.description = description
        self.steps = steps
    }
}

/// Loads `scenarios/*.yaml` under a fixtures directory.
public struct ScenarioLoader: Sendable {
    public let contract: Contract
    /// The fixtures a step may name with `fixture:`, besides the contract's examples.
    public let fixtures: FixtureSet

    public init(contract: Contract, fixtures: FixtureSet = FixtureSet()) {
        self.contract = contract
        self.fixtures = fixtures
    }

    /// Every scenario in `directory`, by name, with the problems found.
    public func load(directory: String) -> ([String: Scenario], [Diagnostic]) {
        NamedDocuments.load(directory: directory) { name, root, reader in scenario(name, root, reader: &reader) }
    }

    private func scenario(_ name: String, _ root: Node, reader: inout NodeReader) -> Scenario? {
        guard let pairs = reader.mapping(root, "a scenario") else { return nil }
        if Scenario.builtInNames.contains(name) {
            reader.error("'\(name)' is a built-in scenario that injects every flow into every endpoint; give this file another name", at: root)
            return nil
        }
        reader.checkKeys(pairs, allowed: MocksKeys.scenario.names, in: "a scenario")
        let steps = (root["steps"].flatMap { reader.sequence($0, "'steps'") } ?? []).compactMap { step($0, reader: &reader) }
        if steps.isEmpty { reader.error("scenario '\(name)' has no steps", at: root) }
        return Scenario(name: name, description: root["description"].flatMap { reader.text($0, "'description'") }, steps: steps)
    }

    private func step(_ node: Node, reader: inout NodeReader) -> Scenario.Step? {
        guard let pairs = reader.mapping(node, "a step") else { return nil }
        reader.checkKeys(pairs, allowed: MocksKeys.step.names, in: "a step")
        guard let endpointNode = node["endpoint"], let endpoint = reader.text(endpointNode, "'endpoint'") else {
            reader.error("a step needs 'endpoint'", at: node)
            return nil
        }
        let ids = contract.endpoints.map(\.id)
        let known = ids.contains { EndpointPattern.matches(endpoint, $0) }
        if !known { reader.error("'\(endpoint)' matches no endpoint\(NameSuggestion.hint(for: endpoint, in: ids))", at: endpointNode) }
        var action: Injection?
        if let respond = node["respond"] {
            do {
                action = try Injection(parsing: reader.text(respond, "'respond'") ?? "", codes: contract.service.codes)
            } catch {
                reader.error(error.message, at: respond)
            }
        }
        var fixture: String?
        if let fixtureNode = node["fixture"] {
            fixture = reader.text(fixtureNode, "'fixture'")
            if action != nil {
                reader.error("a step answers with 'respond' or with 'fixture', not both", at: fixtureNode)
            } else if known, !ids.contains(endpoint) {
                reader.error("'fixture' needs one endpoint id, not the pattern '\(endpoint)'", at: fixtureNode)
            } else if let fixture, let names = answerNames(of: endpoint), !names.contains(fixture) {
                reader.error("'\(endpoint)' has no fixture or example named '\(fixture)' (it has \(names.joined(separator: ", ")))"
                             + NameSuggestion.hint(for: fixture, in: names), at: fixtureNode)
            }
        }
        let repeats = node["repeat"].flatMap { reader.bool($0, "'repeat'") } ?? false
        return Scenario.Step(endpoint: endpoint, action: action, fixture: fixture, repeats: repeats)
    }
}

extension ScenarioLoader {
    /// The names `Prefer: example=NAME` reaches on `endpoint`: its fixtures', then its examples'.
    private func answerNames(of endpoint: String) -> [String]? {
        guard let declared = contract.endpoints.first(where: { $0.id == endpoint }) else { return nil }
        return fixtures.fixtures(for: endpoint).map(\.name) + declared.examples.map(\.name)
    }
}
