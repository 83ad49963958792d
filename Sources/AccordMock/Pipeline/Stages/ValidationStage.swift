import AccordContract
import AccordJSON

/// Checks the routed request against its endpoint and answers every violation at
/// once, each with its JSON pointer, what was expected and what was found.
struct ValidationStage: RoutedStage {
    let validator: RequestValidator
    let envelopes: Envelopes

    func run(_ exchange: inout Exchange, route: Route) -> StageResult {
        let violations = validator.validate(exchange.request, endpoint: route.endpoint, parameters: route.parameters, body: exchange.body,
                                            parts: exchange.parts)
        guard !violations.isEmpty else { return .proceed }
        let list = JSONValue.array(violations.map(\.json))
        let message = violations.count == 1 ? violations[0].message : "\(violations.count) problems in the request"
        return .answer(envelopes.refusal(status: nil, kind: "invalid_request", message, extra: [.init("violations", list)],
                                         endpoint: route.endpoint.id, verdict: .invalid))
    }
}
