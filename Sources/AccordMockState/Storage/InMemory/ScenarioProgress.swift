import AccordContract
import AccordDiagnostics
import AccordMocksFormat
import AccordSync
import AccordYAML

/// Where each session is in its scenario.
///
/// At most ``capacity`` sessions are followed; a new one past that replaces the one
/// that started longest ago, so clients inventing session names cannot grow it.
public final class ScenarioProgress: Sendable {
    /// The default number of sessions followed.
    public static let defaultCapacity = 10_000

    private struct State {
        var positions: [String: (scenario: String, step: Int)] = [:]
        /// Sessions started on a scenario through the control API, which their requests follow without a header.
        var started: [String: String] = [:]
        /// Sessions in the order they started; `head` is the oldest.
        var order: [String] = []
        var head = 0
    }

    private let state = Locked(State())
    public let capacity: Int

    public init(capacity: Int = ScenarioProgress.defaultCapacity) {
        self.capacity = max(1, capacity)
    }

    /// The step `request` meets in `scenario` for `session`, advancing past it; nil when
    /// the request does not concern the current step or the scenario is over.
    public func step(for endpoint: String, session: String, scenario: Scenario) -> (index: Int, step: Scenario.Step)? {
        state.withLock { state in
            let known = state.positions[session]
            if known == nil { Self.follow(session, in: &state, capacity: capacity) }
            var position = known ?? (scenario.name, 0)
            if position.scenario != scenario.name { position = (scenario.name, 0) }
            defer { state.positions[session] = position }
            guard position.step < scenario.steps.count else { return nil }
            let step = scenario.steps[position.step]
            guard EndpointPattern.matches(step.endpoint, endpoint) else { return nil }
            if step.repeats { return (position.step, step) }
            position.step += 1
            return (position.step - 1, step)
        }
    }

    /// Puts `session` on the first step of `scenario`, which its requests then follow
    /// without naming it (`POST /__accord/sessions/{session}/scenario`).
    public func start(_ scenario: String, session: String) {
        state.withLock { state in
            if state.positions[session] == nil { Self.follow(session, in: &state, capacity: capacity) }
            state.positions[session] = (scenario, 0)
            state.started[session] = scenario
        }
    }

    /// The scenario `session` was started on, if any.
    public func startedScenario(session: String) -> String? {
        state.withLock { $0.started[session] }
    }

    /// Starts following `session`, forgetting the oldest one when full.
    private static func follow(_ session: String, in state: inout State, capacity: Int) {
        if state.order.count < capacity {
            state.order.append(session)
        } else {
            state.started[state.order[state.head]] = nil
            state.positions[state.order[state.head]] = nil
            state.order[state.head] = session
            state.head = (state.head + 1) % capacity
        }
    }

    /// How many sessions are followed.
    public var count: Int { state.withLock { $0.positions.count } }

    public func reset() {
        state.withLock { $0 = State() }
    }
}
