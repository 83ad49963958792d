/// The ordered stages a request goes through: those before routing, the router, those
/// of a routed request, and those every answer passes on its way out.
///
/// A stage either passes the exchange on or ends the request with an answer; no later
/// request or routed stage then runs, and every response stage does.
struct Pipeline: Sendable {
    var screening: [any RequestStage]
    var routing: RouteStage
    var routed: [any RoutedStage]
    var finishing: [any ResponseStage]
    /// The answer when no stage made one (a bug in the stage list).
    var unanswered: @Sendable (Exchange) -> MockResponse

    func run(_ request: MockRequest) -> MockResponse {
        process(request).response
    }

    /// The answer and what the stages learned of the request on the way.
    func process(_ request: MockRequest) -> (response: MockResponse, exchange: Exchange) {
        var exchange = Exchange(request: request)
        var response = answer(&exchange)
        for stage in finishing { stage.finish(&response, for: exchange) }
        return (response, exchange)
    }

    private func answer(_ exchange: inout Exchange) -> MockResponse {
        for stage in screening {
            if case .answer(let response) = stage.run(&exchange) { return response }
        }
        let route: Route
        switch routing.route(exchange.request) {
        case .found(let found): route = found
        case .refused(let response): return response
        }
        exchange.parameters = route.parameters
        for stage in routed {
            if case .answer(let response) = stage.run(&exchange, route: route) { return response }
        }
        return exchange.response ?? unanswered(exchange)
    }
}
