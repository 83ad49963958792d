import AccordContract
import AccordHTTP
import AccordJSON
import AccordValidation

/// Makes the envelope answers every stage ends a request with: refusals carrying the
/// violation code and `data.error`, and the flow codes of the contract. For a plain API
/// (`envelope: none`) the same answers are HTTP error statuses with problem documents:
/// `data`'s members become the problem's extension members. The endpoint an answer
/// belongs to is the exchange's route (``Pipeline/process(_:)`` names it).
package struct Envelopes: Sendable {
    package let service: Service
    package let codes: FlowCodes

    package init(service: Service) {
        self.service = service
        codes = FlowCodes(service: service)
    }

    /// An envelope answer for `code` with the code table's HTTP status and message
    /// (`message` wins when given; `fallback` when the table has none).
    /// `entry` is the code-table entry meant, when a plain API's status has several.
    package func answer(code: Int, message: String? = nil, fallback: String, data: JSONValue, verdict: Verdict, entry: BusinessCode? = nil) -> MockResponse {
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
    package func answer(_ role: FlowCodes.Role, reason: String, verdict: Verdict) -> MockResponse {
        let data: JSONValue = service.envelope == nil ? .object([]) : .object([.init("reason", .string(reason))])
        return answer(code: codes[role], message: service.envelope == nil ? reason : nil, fallback: reason, data: data, verdict: verdict,
                      entry: codes.entry(role))
    }

    /// A refusal in the envelope with the contract's violation code and `data.error`;
    /// `status` overrides the code table's HTTP status. For the server's own failures
    /// (an upstream that did not answer, a full store); a request that broke the
    /// contract is refused with ``refuse(_:status:kind:_:extra:violations:verdict:)``.
    package func refusal(status: Int?, kind: String, _ message: String, extra: [JSONValue.Member] = [], verdict: Verdict) -> MockResponse {
        // A plain API's refusal is its status: the problem document says the same.
        let code = service.envelope == nil ? status ?? codes.invalidRequest : codes.invalidRequest
        var response = answer(code: code, message: message, fallback: message,
                              data: .object([.init("error", .string(kind))] + extra), verdict: verdict)
        if let status { response.status = status }
        return response
    }

    /// The ban code with the ban's `ban_info`.
    package func banned(_ ban: UserBan) -> MockResponse {
        answer(code: codes[.banned], fallback: "banned", data: .object([.init("ban_info", ban.json)]), verdict: .banned, entry: codes.entry(.banned))
    }

    /// The refresh token cannot be used.
    package func refreshRefused() -> MockResponse {
        answer(.refreshInvalid, reason: "the refresh token is unknown, rotated, revoked or expired", verdict: .unauthorized)
    }
}
