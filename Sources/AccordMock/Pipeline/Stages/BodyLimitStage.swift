/// Refuses a body the transport did not keep because it is over the server's limit.
struct BodyLimitStage: RequestStage {
    let maxBodyBytes: Int
    let envelopes: Envelopes

    func run(_ exchange: inout Exchange) -> StageResult {
        guard exchange.request.bodyLimitExceeded else { return .proceed }
        return .answer(envelopes.refusal(status: 413, kind: "body_too_large", "the body is larger than the limit of \(maxBodyBytes) bytes",
                                         verdict: .tooLarge))
    }
}
