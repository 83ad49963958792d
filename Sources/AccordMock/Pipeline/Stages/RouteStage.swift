import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState

/// Finds the endpoint of a request (``Exchange/route``), or answers 405 with `Allow`
/// or 404 with the nearest declared routes.
struct RouteStage: Stage {
    let router: Router
    let envelopes: Envelopes

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        let request = exchange.request
        switch router.resolve(method: request.method, path: request.path) {
        case .found(let route, let parameters):
            exchange.route = route
            exchange.parameters = parameters
            return try next(&exchange)
        case .methodNotAllowed(let allowed):
            var response = envelopes.refuse(
                &exchange, status: 405, kind: "method_not_allowed",
                "\(request.method) is not declared for \(request.path); allowed: \(allowed.joined(separator: ", "))",
                extra: [.init("allowed", .array(allowed.map(JSONValue.string)))], verdict: .method)
            // OPTIONS too: the server answers it on every declared path (RFC 9110 §15.5.6).
            response.headers.append(("Allow", (allowed + ["OPTIONS"]).joined(separator: ", ")))
            return response
        case .notFound(let nearest):
            return envelopes.refuse(&exchange, status: 404, kind: "route_not_found", "no route for \(request.method) \(request.path)",
                                    extra: [.init("nearest", .array(nearest.map(JSONValue.string)))], verdict: .noRoute)
        }
    }
}
