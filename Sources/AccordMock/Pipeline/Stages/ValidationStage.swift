import AccordContract
import AccordHTTP
import AccordMockState

/// Checks the routed request against its endpoint and answers every violation at
/// once, each with its JSON pointer, what was expected and what was found.
struct ValidationStage: Stage {
    let validator: RequestValidator
    let envelopes: Envelopes

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard let route = exchange.route else { return try next(&exchange) }
        let violations = validator.validate(exchange.request, endpoint: route.endpoint, parameters: exchange.parameters, body: exchange.body,
                                            parts: exchange.parts)
        guard !violations.isEmpty else { return try next(&exchange) }
        let message = violations.count == 1 ? violations[0].message : "\(violations.count) problems in the request"
        return envelopes.refuse(&exchange, status: nil, kind: "invalid_request", message, violations: violations, verdict: .invalid)
    }
}
