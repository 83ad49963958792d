import AccordContract

/// Finds the endpoint for a method and path, or says why none fits.
public struct Router: Sendable {
    /// The result of routing one request.
    public enum Match: Sendable {
        case endpoint(Endpoint, parameters: [String: String])
        /// The path exists with other methods.
        case methodNotAllowed(allowed: [String])
        /// No route has this path; the nearest declared routes, best first.
        case notFound(nearest: [String])
    }

    private struct Route: Sendable {
        var endpoint: Endpoint
        var segments: [PathTemplate.Segment]
    }

    private let basePath: String
    private let routes: [Route]
    /// Routes by their number of segments, for a quick first cut.
    private let bySegmentCount: [Int: [Int]]

    public init(contract: Contract) {
        basePath = contract.service.basePath
        let routes = contract.endpoints.map { Route(endpoint: $0, segments: $0.path.segments) }
        self.routes = routes
        bySegmentCount = Dictionary(grouping: routes.indices, by: { routes[$0].segments.count })
    }

    /// Routes `path` (percent-decoded, with the base path) for `method`.
    public func match(method: String, path: String) -> Match {
        guard path == basePath || path.hasPrefix(basePath + "/") || basePath.isEmpty else {
            return .notFound(nearest: nearest(to: path))
        }
        let pieces = path.dropFirst(basePath.count).split(separator: "/", omittingEmptySubsequences: true)
        let bound = (bySegmentCount[pieces.count] ?? []).compactMap { index in
            bind(routes[index].segments, to: pieces).map { (route: routes[index], parameters: $0) }
        }
        // The most specific route wins: `/signals/quota` before `/signals/{signal_id}`,
        // whatever order the contract declares them in.
        let withMethod = bound.filter { $0.route.endpoint.method.rawValue == method }
        if let best = withMethod.min(by: { $0.parameters.count < $1.parameters.count }) {
            return .endpoint(best.route.endpoint, parameters: best.parameters)
        }
        if !bound.isEmpty {
            var allowed: [String] = []
            for candidate in bound where !allowed.contains(candidate.route.endpoint.method.rawValue) {
                allowed.append(candidate.route.endpoint.method.rawValue)
            }
            return .methodNotAllowed(allowed: allowed)
        }
        return .notFound(nearest: nearest(to: path))
    }

    /// The methods declared for a path, for CORS preflight and `Allow`.
    public func methods(for path: String) -> [String] {
        if case .methodNotAllowed(let allowed) = match(method: "", path: path) { return allowed }
        return []
    }

    private func bind(_ segments: [PathTemplate.Segment], to pieces: [Substring]) -> [String: String]? {
        var parameters: [String: String] = [:]
        for (segment, piece) in zip(segments, pieces) {
            switch segment {
            case .literal(let text): if text != piece { return nil }
            case .parameter(let name): parameters[name] = String(piece)
            }
        }
        return parameters
    }

    /// Up to three declared routes closest to `path`, as `METHOD /full/path`.
    private func nearest(to path: String) -> [String] {
        let scored = routes.map { route -> (String, Int) in
            let full = basePath + route.endpoint.path.description
            return ("\(route.endpoint.method.rawValue) \(full)", NameSuggestion.editDistance(Array(path.utf8), Array(full.utf8)))
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }
}
