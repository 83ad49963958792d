import AccordContract
import AccordHTTP
import AccordJSON
import AccordValidation

/// Makes the envelope answers every stage ends a request with: refusals carrying the
/// violation code and `data.error`, and the flow codes of the contract. The endpoint
/// an answer belongs to is the exchange's route (``Pipeline/process(_:)`` names it).
struct Envelopes: Sendable {
    let service: Service
    let codes: FlowCodes

    init(service: Service) {
        self.service = service
        codes = FlowCodes(service: service)
    }

    /// An envelope answer for `code` with the code table's HTTP status and message
    /// (`message` wins when given; `fallback` when the table has none).
    func answer(code: Int, message: String? = nil, fallback: String, data: JSONValue, verdict: Verdict) -> MockResponse {
        let names = service.envelope
        let entry = service.code(code)
        let text = message ?? entry?.message ?? fallback
        let bytes = JSONWriter.bytes(.object([.init(names.code, .int(code)), .init(names.message, .string(text)), .init(names.data, data)]))
        return MockResponse(status: entry?.httpStatus ?? 200, headers: [("Content-Type", "application/json; charset=utf-8")],
                            body: .bytes(bytes), summary: .init(code: code, verdict: verdict))
    }

    /// The answer for a flow role, with `data.reason`.
    func answer(_ role: FlowCodes.Role, reason: String, verdict: Verdict) -> MockResponse {
        answer(code: codes[role], fallback: reason, data: .object([.init("reason", .string(reason))]), verdict: verdict)
    }

    /// A refusal in the envelope with the contract's violation code and `data.error`;
    /// `status` overrides the code table's HTTP status. For the server's own failures
    /// (an upstream that did not answer, a full store); a request that broke the
    /// contract is refused with ``refuse(_:status:kind:_:extra:violations:verdict:)``.
    func refusal(status: Int?, kind: String, _ message: String, extra: [JSONValue.Member] = [], verdict: Verdict) -> MockResponse {
        var response = answer(code: codes.invalidRequest, message: message, fallback: message,
                              data: .object([.init("error", .string(kind))] + extra), verdict: verdict)
        if let status { response.status = status }
        return response
    }

    /// Refuses the request of `exchange`: the refusal envelope, and the same refusal,
    /// typed, in the exchange for the journal and the report. The `violations` are
    /// listed in `data.violations`.
    func refuse(_ exchange: inout Exchange, status: Int?, kind: String, _ message: String, extra: [JSONValue.Member] = [],
                violations: [Violation] = [], verdict: Verdict) -> MockResponse {
        var details: [JSONValue.Member] = [.init("error", .string(kind))] + extra
        if !violations.isEmpty { details.append(.init("violations", .array(violations.map(\.json)))) }
        return refuse(&exchange, code: codes.invalidRequest, message: message, fallback: message, details: details, violations: violations,
                      verdict: verdict, status: status)
    }

    /// Refuses the request of `exchange` with `code` and `details` as its `data`; the
    /// message is `message`, else the code table's, else `fallback`.
    func refuse(_ exchange: inout Exchange, code: Int, message: String? = nil, fallback: String, details: [JSONValue.Member],
                violations: [Violation] = [], verdict: Verdict, status: Int? = nil) -> MockResponse {
        let text = message ?? service.code(code)?.message ?? fallback
        exchange.refusal = Refusal(verdict: verdict, message: text, details: details, violations: violations)
        var response = answer(code: code, message: text, fallback: text, data: .object(details), verdict: verdict)
        if let status { response.status = status }
        return response
    }

    /// The ban code with the ban's `ban_info`.
    func banned(_ ban: UserBan) -> MockResponse {
        answer(code: codes[.banned], fallback: "banned", data: .object([.init("ban_info", ban.json)]), verdict: .banned)
    }

    /// The refresh token cannot be used.
    func refreshRefused() -> MockResponse {
        answer(.refreshInvalid, reason: "the refresh token is unknown, rotated, revoked or expired", verdict: .unauthorized)
    }
}
