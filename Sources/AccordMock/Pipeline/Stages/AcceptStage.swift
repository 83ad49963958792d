/// The last stage of a check without answers (``RequestChecker``): a request that got
/// this far keeps to the contract.
struct AcceptStage: RoutedStage {
    func run(_ exchange: inout Exchange, route: Route) -> StageResult {
        .answer(MockResponse(status: 200, summary: .init(endpoint: route.endpoint.id, verdict: .ok)))
    }
}
