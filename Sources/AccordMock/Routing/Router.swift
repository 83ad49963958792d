import AccordContract
import AccordHTTP

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

    /// What routing found, for the request path: the endpoint's ``Route``, shared by
    /// every request routed to it, so that no request copies the endpoint.
    enum Resolution: Sendable {
        case found(Route, parameters: [String: String])
        case methodNotAllowed(allowed: [String])
        case notFound(nearest: [String])
    }

    private struct Template: Sendable {
        var route: Route
        var segments: [PathTemplate.Segment]
        var parameterCount: Int

        var endpoint: Endpoint { route.endpoint }
    }

    private let basePath: String
    private let routes: [Template]
    /// Routes by their number of segments, for a quick first cut.
    private let bySegmentCount: [Int: [Int]]
    /// Routes without parameters by full path, each path's in contract order: the most
    /// specific match, found with one lookup and a comparison of the method per route.
    private let exact: [String: [Route]]
    /// Every route as a 404 names it (`METHOD /full/path`) and its full path's bytes, made once.
    private let suggestions: [(label: String, path: [UInt8])]

    public init(contract: Contract) {
        basePath = contract.service.basePath
        let routes = contract.endpoints.map {
            Template(route: Route(endpoint: $0), segments: $0.path.segments, parameterCount: $0.path.parameterNames.count)
        }
        self.routes = routes
        bySegmentCount = Dictionary(grouping: routes.indices, by: { routes[$0].segments.count })
        let basePath = contract.service.basePath
        suggestions = routes.map { route in
            let full = basePath + route.endpoint.path.description
            return ("\(route.endpoint.method.rawValue) \(full)", Array(full.utf8))
        }
        var exact: [String: [Route]] = [:]
        for route in routes where route.parameterCount == 0 {
            let path = basePath + route.endpoint.path.description
            // The first of one method and path is the one served, as before.
            if exact[path]?.contains(where: { $0.endpoint.method == route.endpoint.method }) != true {
                exact[path, default: []].append(route.route)
            }
        }
        self.exact = exact
    }

    /// Routes `path` (as sent, percent-encoded, with the base path) for `method`.
    ///
    /// The path is split at `/` first and each segment decoded afterwards, so an
    /// encoded slash (`x%2Freply`) is one parameter value, never two segments.
    ///
    /// The path chooses the route before the method does: of the templates that fit,
    /// the most specific wins (a literal segment before a parameter, left to right, as
    /// OpenAPI says), and only its methods answer — `DELETE /signals/inbox` is a 405 of
    /// the literal `/signals/inbox`, never `DELETE /signals/{id}` with id `inbox`.
    /// `HEAD` is answered as `GET` where the contract declares no `HEAD` (RFC 9110 §9.3.2).
    public func match(method requestMethod: String, path: String) -> Match {
        switch resolve(method: requestMethod, path: path) {
        case .found(let route, let parameters): .endpoint(route.endpoint, parameters: parameters)
        case .methodNotAllowed(let allowed): .methodNotAllowed(allowed: allowed)
        case .notFound(let nearest): .notFound(nearest: nearest)
        }
    }

    /// ``match(method:path:)`` for the engine's stages: the endpoint's shared ``Route``.
    func resolve(method requestMethod: String, path: String) -> Resolution {
        if let route = exact[path]?.first(where: { $0.endpoint.method.rawValue == requestMethod }) {
            return .found(route, parameters: [:])
        }
        guard path == basePath || path.hasPrefix(basePath + "/") || basePath.isEmpty else {
            return .notFound(nearest: nearest(to: path))
        }
        let pieces = path.dropFirst(basePath.count).split(separator: "/", omittingEmptySubsequences: true)
            .map { PercentDecoding.decode(String($0), plusAsSpace: false) }
        // The templates that fit, narrowed to the most specific shape as they come.
        var candidates: [Template] = []
        for index in bySegmentCount[pieces.count] ?? [] where fits(routes[index].segments, pieces) {
            let route = routes[index]
            switch candidates.first.map({ Self.specificity(route.segments, comparedTo: $0.segments) }) {
            case nil, .same?: candidates.append(route)
            case .more?: candidates = [route]
            case .less?: break
            }
        }
        guard !candidates.isEmpty else { return .notFound(nearest: nearest(to: path)) }
        let chosen = candidates.first { $0.endpoint.method.rawValue == requestMethod }
            ?? (requestMethod == "HEAD" ? candidates.first { $0.endpoint.method.rawValue == "GET" } : nil)
        guard let chosen else {
            var allowed: [String] = []
            for route in candidates where !allowed.contains(route.endpoint.method.rawValue) { allowed.append(route.endpoint.method.rawValue) }
            if allowed.contains("GET") && !allowed.contains("HEAD") { allowed.append("HEAD") }
            return .methodNotAllowed(allowed: allowed)
        }
        var parameters: [String: String] = [:]
        for (segment, piece) in zip(chosen.segments, pieces) {
            if case .parameter(let name) = segment { parameters[name] = piece }
        }
        return .found(chosen.route, parameters: parameters)
    }

    private enum Specificity { case more, same, less }

    /// Whether template `a` is more specific than `b` (both fit the same path): the first
    /// segment where one is literal and the other a parameter decides.
    private static func specificity(_ a: [PathTemplate.Segment], comparedTo b: [PathTemplate.Segment]) -> Specificity {
        for (x, y) in zip(a, b) {
            switch (x, y) {
            case (.literal, .parameter): return .more
            case (.parameter, .literal): return .less
            default: continue
            }
        }
        return .same
    }

    /// The methods declared for a path, for CORS preflight and `Allow`.
    public func methods(for path: String) -> [String] {
        if case .methodNotAllowed(let allowed) = resolve(method: "", path: path) { return allowed }
        return []
    }

    private func fits(_ segments: [PathTemplate.Segment], _ pieces: [String]) -> Bool {
        for (segment, piece) in zip(segments, pieces) {
            if case .literal(let text) = segment, text != piece { return false }
        }
        return true
    }

    /// The longest path for which nearest routes are suggested: the edit distance costs
    /// the product of the two lengths, and a client controls one of them.
    static let maxSuggestedPathLength = 256

    /// Up to three declared routes closest to `path`, as `METHOD /full/path`; none for a
    /// path longer than ``maxSuggestedPathLength``, and only routes within that many
    /// bytes of its length are compared.
    private func nearest(to path: String) -> [String] {
        let length = path.utf8.count
        guard length <= Self.maxSuggestedPathLength else { return [] }
        let bytes = Array(path.utf8)
        let scored = suggestions.compactMap { suggestion -> (String, Int)? in
            guard abs(suggestion.path.count - length) <= Self.maxSuggestedPathLength / 4 else { return nil }
            return (suggestion.label, NameSuggestion.editDistance(bytes, suggestion.path))
        }
        return scored.sorted { ($0.1, $0.0) < ($1.1, $1.0) }.prefix(3).map(\.0)
    }
}
