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
