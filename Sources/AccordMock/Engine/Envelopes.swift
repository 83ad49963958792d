import AccordContract
import AccordJSON

/// Makes the envelope answers every stage ends a request with: refusals carrying the
/// violation code and `data.error`, and the flow codes of the contract.
struct Envelopes: Sendable {
    let service: Service
    let codes: FlowCodes

    init(service: Service) {
        self.service = service
        codes = FlowCodes(service: service)
    }

    /// An envelope answer for `code` with the code table's HTTP status and message
    /// (`message` wins when given; `fallback` when the table has none).
    func answer(code: Int, message: String? = nil, fallback: String, data: JSONValue, endpoint: String?,
                verdict: Verdict) -> MockResponse {
        let names = service.envelope
        let entry = service.code(code)
        let text = message ?? entry?.message ?? fallback
        let bytes = JSONWriter.bytes(.object([.init(names.code, .int(code)), .init(names.message, .string(text)), .init(names.data, data)]))
        return MockResponse(status: entry?.httpStatus ?? 200, headers: [("Content-Type", "application/json; charset=utf-8")],
                            body: .bytes(bytes), summary: .init(endpoint: endpoint, code: code, verdict: verdict))
    }

    /// The answer for a flow role, with `data.reason`.
    func answer(_ role: FlowCodes.Role, reason: String, endpoint: String?, verdict: Verdict) -> MockResponse {
        answer(code: codes[role], fallback: reason, data: .object([.init("reason", .string(reason))]), endpoint: endpoint, verdict: verdict)
    }

    /// A refusal in the envelope with the contract's violation code and `data.error`;
    /// `status` overrides the code table's HTTP status.
    func refusal(status: Int?, kind: String, _ message: String, extra: [JSONValue.Member] = [],
                 endpoint: String? = nil, verdict: Verdict) -> MockResponse {
        var response = answer(code: codes.invalidRequest, message: message, fallback: message,
                              data: .object([.init("error", .string(kind))] + extra), endpoint: endpoint, verdict: verdict)
        if let status { response.status = status }
        return response
    }

    /// The ban code with the ban's `ban_info`.
    func banned(_ ban: TokenStore.Ban, endpoint: String) -> MockResponse {
        answer(code: codes[.banned], fallback: "banned", data: .object([.init("ban_info", ban.json)]), endpoint: endpoint, verdict: .banned)
    }

    /// The refresh token cannot be used.
    func refreshRefused(endpoint: String) -> MockResponse {
        answer(.refreshInvalid, reason: "the refresh token is unknown, rotated, revoked or expired", endpoint: endpoint, verdict: .unauthorized)
    }
}
