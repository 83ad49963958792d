/// Adds `Access-Control-Allow-Origin` (and `Vary: Origin`) to every answer to a
/// browser request when ``MockOptions/corsAllowOrigin`` is set; a preflight answer
/// carries its own, never two.
struct CORSStage: ResponseStage {
    let allowOrigin: String

    func finish(_ response: inout MockResponse, for exchange: Exchange) {
        guard exchange.request.headers["origin"] != nil,
              !response.headers.contains(where: { $0.name == "Access-Control-Allow-Origin" }) else { return }
        response.headers.append(("Access-Control-Allow-Origin", allowOrigin))
        if allowOrigin != "*" { response.headers.append(("Vary", "Origin")) }
    }
}
