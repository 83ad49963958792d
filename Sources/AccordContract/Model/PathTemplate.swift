/// A route path such as `/signals/{signal_id}/reply`, split into segments.
public struct PathTemplate: Sendable, Hashable, CustomStringConvertible {
    /// One `/`-separated piece of the path.
    public enum Segment: Sendable, Hashable {
        case literal(String)
        case parameter(String)
    }

    public var segments: [Segment]

    public init(segments: [Segment]) {
        self.segments = segments
    }

    /// The names of the parameters, in path order.
    public var parameterNames: [String] {
        segments.compactMap { if case .parameter(let name) = $0 { name } else { nil } }
    }

    /// The path as written: `/signals/{signal_id}`.
    public var description: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter(let name): "{\(name)}"
            }
        }.joined(separator: "/")
    }

    /// The path with parameter names erased, so `/a/{x}` and `/a/{y}` compare equal.
    public var shape: String {
        "/" + segments.map { segment in
            switch segment {
            case .literal(let text): text
            case .parameter: "{}"
            }
        }.joined(separator: "/")
    }
}
