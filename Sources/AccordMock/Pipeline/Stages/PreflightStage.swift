import AccordContract

/// Answers `OPTIONS`: the `Allow`ed methods of a declared path and, with
/// ``MockOptions/corsAllowOrigin``, a CORS preflight granting the contract's headers.
struct PreflightStage: RequestStage {
    let router: Router
    let corsAllowOrigin: String?
    /// The headers a preflight grants when the browser does not list its own.
    let contractHeaders: String
    let envelopes: Envelopes

    init(router: Router, service: Service, corsAllowOrigin: String?, envelopes: Envelopes) {
        self.router = router
        self.corsAllowOrigin = corsAllowOrigin
        self.envelopes = envelopes
        let signing = service.signing
        contractHeaders = ([signing.appKeyHeader, signing.timestampHeader, signing.nonceHeader, signing.signatureHeader,
                            service.auth.header, "Content-Type", "Prefer"] + service.headers.map(\.name)).joined(separator: ", ")
    }

    func run(_ exchange: inout Exchange) -> StageResult {
        let request = exchange.request
        guard request.method == "OPTIONS" else { return .proceed }
        let methods = router.methods(for: request.path)
        guard !methods.isEmpty else {
            return .answer(envelopes.refusal(status: 404, kind: "route_not_found", "no route for \(request.path)", verdict: .noRoute))
        }
        let allow = (methods + ["OPTIONS"]).joined(separator: ", ")
        guard let origin = corsAllowOrigin, request.header("access-control-request-method") != nil else {
            return .answer(MockResponse(status: 204, headers: [("Allow", allow)], summary: .init(verdict: .options)))
        }
        return .answer(MockResponse(status: 204, headers: [
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Allow-Methods", allow),
            ("Access-Control-Allow-Headers", request.header("access-control-request-headers") ?? contractHeaders),
            ("Access-Control-Max-Age", "600"),
            ("Allow", allow),
        ], summary: .init(verdict: .preflight)))
    }
}
