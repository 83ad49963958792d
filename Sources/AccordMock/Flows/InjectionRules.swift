import Synchronization

/// The standing injection rules, shared by every request.
public final class InjectionRules: Sendable {
    private struct State {
        var rules: [InjectionRule] = []
        var nextID = 1
    }

    private let state = Mutex(State())
    private let random: @Sendable () -> Double

    /// - Parameter random: a number in 0..<1 for probabilistic rules (the server's seeded generator).
    public init(random: @escaping @Sendable () -> Double) {
        self.random = random
    }

    /// Adds a rule and returns it with its id.
    @discardableResult
    public func add(_ rule: InjectionRule) -> InjectionRule {
        state.withLock { state in
            var rule = rule
            rule.id = state.nextID
            state.nextID += 1
            state.rules.append(rule)
            return rule
        }
    }

    /// The rules now, in the order they are tried.
    public var all: [InjectionRule] { state.withLock { $0.rules } }

    /// Removes the rule; false if there is none with that id.
    public func remove(id: Int) -> Bool {
        state.withLock { state in
            let before = state.rules.count
            state.rules.removeAll { $0.id == id }
            return state.rules.count < before
        }
    }

    public func removeAll() {
        state.withLock { $0.rules.removeAll() }
    }

    /// The first rule that fires for this request, counted as fired.
    public func fire(endpoint: String, user: Int?, session: String) -> InjectionRule? {
        state.withLock { state in
            for index in state.rules.indices where state.rules[index].matches(endpoint: endpoint, user: user, session: session) {
                state.rules[index].seen += 1
                let rule = state.rules[index]
                if rule.seen <= rule.after { continue }
                if let probability = rule.probability, random() >= probability { continue }
                if let remaining = rule.remaining {
                    if remaining <= 1 { state.rules.remove(at: index) } else { state.rules[index].remaining = remaining - 1 }
                }
                return rule
            }
            return nil
        }
    }
}
