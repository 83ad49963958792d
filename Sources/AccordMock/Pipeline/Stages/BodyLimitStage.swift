import AccordHTTP
import AccordMockState
/// Refuses a body the transport did not keep: over its limit (413), or over the budget
/// of all bodies in flight (503, with `Retry-After`).
struct BodyLimitStage: Stage {
    let limits: BodyLimits
    let envelopes: Envelopes

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        let request = exchange.request
        if request.bodyBudgetExhausted {
            var response = envelopes.refusal(status: 503, kind: "server_busy",
                                             "the server holds as many request bodies as its budget allows; try again in a second",
                                             verdict: .overloaded)
            response.headers.append(("Retry-After", "1"))
            return response
        }
        guard request.bodyLimitExceeded else { return try next(&exchange) }
        let limit = limits.limit(method: request.method, target: request.target)
        return envelopes.refuse(&exchange, status: 413, kind: "body_too_large", "the body is larger than the limit of \(limit) bytes",
                                extra: [.init("limit_bytes", .int(limit))], verdict: .tooLarge)
    }
}
