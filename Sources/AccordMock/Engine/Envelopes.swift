import AccordContract
import AccordHTTP
import AccordJSON
import AccordValidation

/// Makes the envelope answers every stage ends a request with: refusals carrying the
/// violation code and `data.error`, and the flow codes of the contract. For a plain API
/// (`envelope: none`) the same answers are HTTP error statuses with problem documents:
/// `data`'s members become the problem's extension members. The endpoint an answer
/// belongs to is the exchange's route (``Pipeline/process(_:)`` names it).
struct Envelopes: Sendable {
    let service: Service
    let codes: FlowCodes

    init(service: Service) {
        self.service = service
        codes = FlowCodes(service: service)
    }

    /// An envelope answer for `code` with the code table's HTTP status and message
    /// (`message` wins when given; `fallback` when the table has none).
    /// `entry` is the code-table entry meant, when a plain API's status has several.
    func answer(code: Int, message: String? = nil, fallback: String, data: JSONValue, verdict: Verdict, entry: BusinessCode? = nil) -> MockResponse {
        let entry = entry ?? service.code(status: code, body: service.envelope == nil ? data : nil)
        let body: JSONValue
        if service.envelope == nil {
            let members = if case .object(let members) = data { members } else { [JSONValue.Member]() }
            body = service.problem(status: code, entry: entry, detail: message ?? fallback, members: members)
        } else {
            body = service.answerBody(code: code, message: message ?? entry?.message ?? fallback, data: data)
        }
        return MockResponse(status: entry?.httpStatus ?? (service.envelope == nil ? code : 200), headers: [("Content-Type", service.contentType(code: code))],
                            body: .bytes(JSONWriter.bytes(body)), summary: .init(code: code, verdict: verdict))
    }

    /// The answer for a flow role, with `data.reason` (a plain API's problem: `detail`).
    func answer(_ role: FlowCodes.Role, reason: String, verdict: Verdict) -> MockResponse {
        let data: JSONValue = service.envelope == nil ? .object([]) : .object([.init("reason", .string(reason))])
        return answer(code: codes[role], message: service.envelope == nil ? reason : nil, fallback: reason, data: data, verdict: verdict,
                      entry: codes.entry(role))
    }

    /// A refusal in the envelope with the contract's violation code and `data.error`;
    /// `status` overrides the code table's HTTP status. For the server's own failures
    /// (an upstream that did not answer, a full store); a request that broke the
    /// contract is refused with ``refuse(_:status:kind:_:extra:violations:verdict:)``.
    func refusal(status: Int?, kind: String, _ message: String, extra: [JSONValue.Member] = [], verdict: Verdict) -> MockResponse {
        // A plain API's refusal is its status: the problem document says the same.
        let code = service.envelope == nil ? status ?? codes.invalidRequest : codes.invalidRequest
        var response = answer(code: code, message: message, fallback: message,
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

    /// The ban code with the ban's `ban_info`.
    func banned(_ ban: UserBan) -> MockResponse {
        answer(code: codes[.banned], fallback: "banned", data: .object([.init("ban_info", ban.json)]), verdict: .banned, entry: codes.entry(.banned))
    }

    /// The refresh token cannot be used.
    func refreshRefused() -> MockResponse {
        answer(.refreshInvalid, reason: "the refresh token is unknown, rotated, revoked or expired", verdict: .unauthorized)
    }
}
