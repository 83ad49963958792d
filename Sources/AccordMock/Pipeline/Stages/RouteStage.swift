import AccordContract
import AccordJSON

/// Finds the endpoint of a request, or answers 405 with `Allow` or 404 with the
/// nearest declared routes.
struct RouteStage: Sendable {
    /// A route, or the answer that ends the request.
    enum Routing: Sendable {
        case found(Route)
        case refused(MockResponse)
    }

    let router: Router
    let envelopes: Envelopes

    func route(_ request: MockRequest) -> Routing {
        switch router.match(method: request.method, path: request.path) {
        case .endpoint(let endpoint, let parameters):
            return .found(Route(endpoint: endpoint, parameters: parameters))
        case .methodNotAllowed(let allowed):
            var response = envelopes.refusal(
                status: 405, kind: "method_not_allowed",
                "\(request.method) is not declared for \(request.path); allowed: \(allowed.joined(separator: ", "))",
                extra: [.init("allowed", .array(allowed.map(JSONValue.string)))], verdict: .method)
            // OPTIONS too: the server answers it on every declared path (RFC 9110 §15.5.6).
            response.headers.append(("Allow", (allowed + ["OPTIONS"]).joined(separator: ", ")))
            return .refused(response)
        case .notFound(let nearest):
            return .refused(envelopes.refusal(status: 404, kind: "route_not_found", "no route for \(request.method) \(request.path)",
                                              extra: [.init("nearest", .array(nearest.map(JSONValue.string)))], verdict: .noRoute))
        }
    }
}
