/// Every fixture, grouped by endpoint id in the order written.
public struct FixtureSet: Sendable {
    public var byEndpoint: [String: [Fixture]]

    public init(byEndpoint: [String: [Fixture]] = [:]) {
        self.byEndpoint = byEndpoint
    }

    /// How many fixtures there are in all.
    public var count: Int { byEndpoint.values.reduce(0) { $0 + $1.count } }

    /// The fixtures of `endpoint`, in the order written.
    public func fixtures(for endpoint: String) -> [Fixture] {
        byEndpoint[endpoint] ?? []
    }
}

extension Array where Element == Fixture {
    /// The fixtures in the order the server tries them (docs/mocks.md, "Which answer"):
    /// those that are not the default, highest `priority` first and ties as written, then
    /// the default.
    public var inTryOrder: [Fixture] {
        filter { !$0.isDefault }.enumerated()
            .sorted { ($1.element.priority, $0.offset) < ($0.element.priority, $1.offset) }
            .map(\.element) + filter(\.isDefault)
    }
}
