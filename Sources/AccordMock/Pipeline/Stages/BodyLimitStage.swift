/// Refuses a body the transport did not keep: over its limit (413), or over the budget
/// of all bodies in flight (503, with `Retry-After`).
struct BodyLimitStage: RequestStage {
    let limits: BodyLimits
    let envelopes: Envelopes

    func run(_ exchange: inout Exchange) -> StageResult {
        let request = exchange.request
        if request.bodyBudgetExhausted {
            var response = envelopes.refusal(status: 503, kind: "server_busy",
                                             "the server holds as many request bodies as its budget allows; try again in a second",
                                             verdict: .overloaded)
            response.headers.append(("Retry-After", "1"))
            return .answer(response)
        }
        guard request.bodyLimitExceeded else { return .proceed }
        let limit = limits.limit(method: request.method, target: request.target)
        return .answer(envelopes.refusal(status: 413, kind: "body_too_large", "the body is larger than the limit of \(limit) bytes",
                                         extra: [.init("limit_bytes", .int(limit))], verdict: .tooLarge))
    }
}
