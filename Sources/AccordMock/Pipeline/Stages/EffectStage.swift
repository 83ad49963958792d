import AccordContract

/// Runs the chosen fixture's effects on the session's collections (``EffectRunner``):
/// the records they make, change, find or list become the answer's `data`. Only for a
/// successful answer the client gets.
struct EffectStage: Stage {
    let effects: EffectRunner

    func respond(to exchange: inout Exchange, next: Next) -> MockResponse {
        guard let endpoint = exchange.endpoint, var draft = exchange.draft, !draft.answer.effects.isEmpty, draft.answer.code == 0,
              exchange.answerIsDelivered else { return next(&exchange) }
        do {
            draft.built = try effects.run(draft.answer.effects, data: draft.answer.effectData, endpoint: endpoint, session: exchange.session,
                                          context: &draft.context)
        } catch {
            return effects.response(for: error, label: draft.answer.label, exchange: &exchange)
        }
        exchange.draft = draft
        return next(&exchange)
    }
}
