/// Refuses a message whose framing the transport found ambiguous, and a target that
/// holds an encoded NUL; both before anything reads the request.
struct FramingStage: RequestStage {
    let envelopes: Envelopes

    func run(_ exchange: inout Exchange) -> StageResult {
        if let problem = exchange.request.framingProblem {
            return .answer(envelopes.refusal(status: 400, kind: "bad_framing", problem, verdict: .malformed))
        }
        if exchange.request.containsEncodedNUL {
            return .answer(envelopes.refusal(status: 400, kind: "nul_in_target", "the path or query holds an encoded NUL (%00)",
                                             verdict: .malformed))
        }
        return .proceed
    }
}
