import AccordContract
import AccordHTTP
import AccordMockState

/// Answers `OPTIONS` (the `Allow`ed methods of a declared path and, with
/// ``MockOptions/corsAllowOrigin``, a CORS preflight granting the contract's headers),
/// and adds `Access-Control-Allow-Origin` (and `Vary: Origin`) to every other answer
/// to a browser's request.
struct CORSStage: Stage {
    let router: Router
    let allowOrigin: String?
    /// The headers a preflight grants when the browser does not list its own.
    let contractHeaders: String
    let envelopes: Envelopes

    init(router: Router, service: Service, allowOrigin: String?, envelopes: Envelopes) {
        self.router = router
        self.allowOrigin = allowOrigin
        self.envelopes = envelopes
        let signing = service.signing
        let signingHeaders = signing.isEnabled ? [signing.appKeyHeader, signing.timestampHeader, signing.nonceHeader, signing.signatureHeader] : []
        let credential: [String] = switch service.auth.kind {
        case .none: []
        case .bearer: [service.auth.header]
        case .apiKey(let key): key.location == .header ? [key.name] : []
        }
        contractHeaders = (signingHeaders + credential + ["Content-Type", "Prefer"] + service.headers.map(\.name)).joined(separator: ", ")
    }

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        var response = exchange.request.method == "OPTIONS" ? options(&exchange) : try next(&exchange)
        if let allowOrigin, exchange.request.headers["origin"] != nil,
           !response.headers.contains(where: { $0.name == "Access-Control-Allow-Origin" }) {
            response.headers.append(("Access-Control-Allow-Origin", allowOrigin))
            if allowOrigin != "*" { response.headers.append(("Vary", "Origin")) }
        }
        return response
    }

    private func options(_ exchange: inout Exchange) -> MockResponse {
        let request = exchange.request
        let methods = router.methods(for: request.path)
        guard !methods.isEmpty else {
            return envelopes.refuse(&exchange, status: 404, kind: "route_not_found", "no route for \(request.path)", verdict: .noRoute)
        }
        let allow = (methods + ["OPTIONS"]).joined(separator: ", ")
        guard let origin = allowOrigin, request.header("access-control-request-method") != nil else {
            return MockResponse(status: 204, headers: [("Allow", allow)], summary: .init(verdict: .options))
        }
        return MockResponse(status: 204, headers: [
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Allow-Methods", allow),
            ("Access-Control-Allow-Headers", request.header("access-control-request-headers") ?? contractHeaders),
            ("Access-Control-Max-Age", "600"),
            ("Allow", allow),
        ], summary: .init(verdict: .preflight))
    }
}
