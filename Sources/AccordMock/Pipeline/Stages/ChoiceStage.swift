import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import Foundation

/// Chooses the answer (``Exchange/draft``): the one a `Prefer: example=NAME` or a
/// scenario step names, else the first fixture whose matchers and state conditions
/// fit, the default fixture, the contract's example, or a value generated from the
/// schema (a stream when the body asks for one). Not for an injected business code or
/// a binary endpoint, which ``RenderStage`` answers without a fixture.
struct ChoiceStage: Stage {
    let answers: [String: EndpointAnswers]
    let state: MockState
    let effects: EffectRunner
    let envelopes: Envelopes

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard let route = exchange.route, exchange.injection?.answer == nil, route.endpoint.binary == nil else { return try next(&exchange) }
        guard let candidates = answers[route.endpoint.id] else {
            return envelopes.refusal(status: 500, kind: "internal", "no answers compiled for '\(route.endpoint.id)'", verdict: .error)
        }
        var context = TemplateContext(request: exchange.request, parameters: exchange.parameters, body: exchange.body,
                                      now: try state.clock.now, state: state)
        context.user = exchange.user
        context.integerParameters = candidates.integerParameters
        switch try choose(from: candidates, exchange: exchange, route: route, context: &context) {
        case .success(let answer):
            exchange.draft = Draft(answer: answer, context: context)
            return try next(&exchange)
        case .failure(let unknown):
            let names = candidates.named.map(\.name)
            return envelopes.refusal(
                status: 400, kind: "unknown_example",
                "no fixture or example named '\(unknown.name)' for '\(route.endpoint.id)'; available: \(names.joined(separator: ", "))",
                extra: [.init("available", .array(names.map(JSONValue.string)))], verdict: .noExample)
        }
    }

    /// `Prefer: example=NAME` named an answer the endpoint does not have.
    struct UnknownExample: Error {
        var name: String
    }

    /// The answer to serve; the records its `when: {state: …}` found go into `context`.
    private func choose(from candidates: EndpointAnswers, exchange: Exchange, route: Route,
                        context: inout TemplateContext) throws(StorageError) -> Result<Answer, UnknownExample> {
        if let name = Self.preferredExample(exchange.request.headers["prefer"]) ?? exchange.injection?.fixture {
            guard let named = candidates.named.first(where: { $0.name == name }) else { return .failure(UnknownExample(name: name)) }
            // Named, it answers whether or not its state conditions hold; what they find, its templates read.
            if !named.conditions.isEmpty, let found = try effects.check(named.conditions, session: exchange.session, context: context) {
                context.found = found
            }
            return .success(named)
        }
        let wantsStream = route.endpoint.stream.map { exchange.body?[$0.toggle] == .bool(true) } ?? false
        let fits = { (answer: Answer) in (answer.events != nil) == wantsStream }
        if let fixture = try firstFitting(candidates.fixtures, exchange: exchange, fits: fits, context: &context) {
            return .success(fixture)
        }
        return .success(candidates.defaultFixture.flatMap { fits($0) ? $0 : nil }
            ?? (wantsStream ? candidates.generatedStream : nil)
            ?? candidates.examples.first { fits($0) && $0.code == 0 }
            ?? candidates.generated)
    }

    /// The first of `fixtures` whose matchers and state conditions hold; the records its
    /// conditions found go into `context`. Only an endpoint with such fixtures pays for
    /// the request's match context.
    private func firstFitting(_ fixtures: [Answer], exchange: Exchange, fits: (Answer) -> Bool,
                              context: inout TemplateContext) throws(StorageError) -> Answer? {
        guard !fixtures.isEmpty else { return nil }
        let matching = MatchContext(request: exchange.request, parameters: exchange.parameters, body: exchange.body)
        // By index: an answer is a large value, copied only once chosen.
        for index in fixtures.indices where fits(fixtures[index]) && matching.matches(fixtures[index].matchers) {
            if fixtures[index].conditions.isEmpty { return fixtures[index] }
            if let found = try effects.check(fixtures[index].conditions, session: exchange.session, context: context) {
                context.found = found
                return fixtures[index]
            }
        }
        return nil
    }

    /// `example=NAME` in a `Prefer` header (RFC 7240), quoted or not.
    static func preferredExample(_ header: String?) -> String? {
        guard let header else { return nil }
        for preference in header.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let parts = preference.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "example" {
                return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }
}
