import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordValidation

/// Checks the routed request against its endpoint and answers every violation at
/// once (up to ``Violation/limit``), each with its JSON pointer, what was expected and
/// what was found.
struct ValidationStage: Stage {
    let validator: RequestValidator
    let envelopes: Envelopes

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard let route = exchange.route else { return try next(&exchange) }
        let violations = validator.validate(exchange.request, endpoint: route.endpoint, parameters: exchange.parameters, body: exchange.body,
                                            parts: exchange.parts)
        guard !violations.isEmpty else { return try next(&exchange) }
        let message = violations.count == 1 ? violations[0].message : Violation.count(of: violations, in: "request")
        // Past the limit the checks stopped: the answer says how many it lists at most.
        let extra: [JSONValue.Member] = violations.count < Violation.limit ? [] : [.init("violations_limit", .int(Violation.limit))]
        return envelopes.refuse(&exchange, status: nil, kind: "invalid_request", message, extra: extra, violations: violations, verdict: .invalid)
    }
}
