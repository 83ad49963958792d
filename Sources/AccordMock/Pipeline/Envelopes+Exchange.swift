import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordValidation

extension Envelopes {
    /// Refuses the request of `exchange`: the refusal envelope, and the same refusal,
    /// typed, in the exchange for the journal and the report. The `violations` are
    /// listed in `data.violations`.
    func refuse(_ exchange: inout Exchange, status: Int?, kind: String, _ message: String, extra: [JSONValue.Member] = [],
                violations: [Violation] = [], verdict: Verdict) -> MockResponse {
        var details: [JSONValue.Member] = [.init("error", .string(kind))] + extra
        if !violations.isEmpty { details.append(.init("violations", .array(violations.map(\.json)))) }
        let code = service.envelope == nil ? status ?? codes.invalidRequest : codes.invalidRequest
        return refuse(&exchange, code: code, message: message, fallback: message, details: details, violations: violations,
                      verdict: verdict, status: status)
    }

    /// Refuses the request of `exchange` with `code` and `details` as its `data`; the
    /// message is `message`, else the code table's, else `fallback`.
    func refuse(_ exchange: inout Exchange, code: Int, message: String? = nil, fallback: String, details: [JSONValue.Member],
                violations: [Violation] = [], verdict: Verdict, status: Int? = nil) -> MockResponse {
        // A plain API's problem has the entry's message as its title and this text as its detail.
        let text = message ?? (service.envelope == nil ? nil : service.code(code)?.message) ?? fallback
        exchange.refusal = Refusal(verdict: verdict, message: text, details: details, violations: violations)
        var response = answer(code: code, message: text, fallback: text, data: .object(details), verdict: verdict)
        if let status { response.status = status }
        return response
    }
}
