import AccordContract
import AccordHTTP
import AccordMockState

/// Runs the chosen fixture's effects on the session's collections (``EffectRunner``):
/// the records they make, change, find or list become the answer's `data`. Only for a
/// successful answer the client gets.
struct EffectStage: Stage {
    let effects: EffectRunner

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard exchange.draft?.answer.effects.isEmpty == false, exchange.draft?.answer.code == 0, exchange.answerIsDelivered,
              let route = exchange.route else { return try next(&exchange) }
        let session = exchange.session
        do {
            try exchange.draft?.build(with: effects, endpoint: route.endpoint.id, session: session)
        } catch {
            return try effects.response(for: error, label: exchange.draft?.answer.label ?? "", exchange: &exchange)
        }
        return try next(&exchange)
    }
}

extension Draft {
    /// Runs the answer's effects: the body around the `data` they build, and the records they touched for its templates.
    mutating func build(with effects: EffectRunner, endpoint: String, session: String) throws(EffectRunner.Refusal) {
        built = try effects.body(answer.effects, data: answer.effectData, endpoint: endpoint, fixture: answer.label, reads: answer.recordReads,
                                 session: session, context: &context)
    }
}
