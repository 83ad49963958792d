import AccordContract
import AccordMocksFormat
import AccordSync

/// The standing injection rules, shared by every request.
///
/// At most ``capacity`` rules stand at once; adding one more fails with ``Full``. The
/// per-request check looks only at the rules that can concern the request's endpoint,
/// found through an index built on first use per endpoint and dropped whenever the
/// rules change, so a thousand rules for other endpoints cost one dictionary lookup.
public final class InjectionRules: Sendable {
    /// The default cap on standing rules.
    public static let defaultCapacity = 1_000


    private struct State {
        var rules: [InjectionRule] = []
        var nextID = 1
        /// Endpoint id → indices into `rules` of the rules whose pattern matches it.
        var byEndpoint: [String: [Int]] = [:]

        mutating func rulesChanged() {
            byEndpoint.removeAll(keepingCapacity: true)
        }

        mutating func candidates(for endpoint: String) -> [Int] {
            if let known = byEndpoint[endpoint] { return known }
            let found = rules.indices.filter { EndpointPattern.matches(rules[$0].endpoint, endpoint) }
            byEndpoint[endpoint] = found
            return found
        }
    }

    private let state = Locked(State())
    private let random: @Sendable () -> Double
    /// The most rules that stand at once.
    public let capacity: Int

    /// - Parameters:
    ///   - capacity: the most rules that stand at once.
    ///   - random: a number in 0..<1 for probabilistic rules (the server's seeded generator).
    public init(capacity: Int = InjectionRules.defaultCapacity, random: @escaping @Sendable () -> Double) {
        self.capacity = max(1, capacity)
        self.random = random
    }

    /// Adds a rule and returns it with its id.
    @discardableResult
    public func add(_ rule: InjectionRule) throws(StorageError) -> InjectionRule {
        let added: InjectionRule? = state.withLock { state in
            guard state.rules.count < capacity else { return nil }
            var rule = rule
            rule.id = state.nextID
            state.nextID += 1
            state.rules.append(rule)
            state.rulesChanged()
            return rule
        }
        guard let added else { throw .rulesFull(capacity: capacity) }
        return added
    }

    /// The rules now, in the order they are tried.
    public var all: [InjectionRule] { state.withLock { $0.rules } }

    /// Removes the rule; false if there is none with that id.
    public func remove(id: Int) -> Bool {
        state.withLock { state in
            guard let index = state.rules.firstIndex(where: { $0.id == id }) else { return false }
            state.rules.remove(at: index)
            state.rulesChanged()
            return true
        }
    }

    public func removeAll() {
        state.withLock { state in
            state.rules.removeAll()
            state.rulesChanged()
        }
    }

    /// The first rule that fires for this request, counted as fired.
    public func fire(endpoint: String, user: Int?, session: String) -> InjectionRule? {
        state.withLock { state in
            guard !state.rules.isEmpty else { return nil }
            for index in state.candidates(for: endpoint) where state.rules[index].concerns(user: user, session: session) {
                state.rules[index].seen += 1
                let rule = state.rules[index]
                if rule.seen <= rule.after { continue }
                if let probability = rule.probability, random() >= probability { continue }
                if let remaining = rule.remaining {
                    if remaining <= 1 {
                        state.rules.remove(at: index)
                        state.rulesChanged()
                    } else {
                        state.rules[index].remaining = remaining - 1
                    }
                }
                return rule
            }
            return nil
        }
    }
}
