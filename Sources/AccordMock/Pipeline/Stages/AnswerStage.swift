import AccordContract
import AccordJSON
import Foundation

/// Picks and renders the answer: the one a `Prefer: example=NAME` names, else the first
/// fixture whose matchers fit, the default fixture, the contract's example, or a value
/// generated from the schema (a stream when the body asks for one). A login or refresh
/// answer with token holes gets its tokens here; a fixture with effects acts on the
/// session's collections (``EffectRunner``) and answers what they did.
struct AnswerStage: RoutedStage {
    let answers: [String: EndpointAnswers]
    let state: MockState
    let grant: TokenGrant
    let envelopes: Envelopes
    let effects: EffectRunner
    /// Where the URLs of stored files and upload policies point.
    let origin: PublicOrigin

    func run(_ exchange: inout Exchange, route: Route) -> StageResult {
        let endpoint = route.endpoint
        guard let candidates = answers[endpoint.id] else {
            return .answer(envelopes.refusal(status: 500, kind: "internal", "no answers compiled for '\(endpoint.id)'", verdict: .error))
        }
        if let types = endpoint.binary {
            exchange.response = storedFile(types, endpoint: endpoint, parameters: route.parameters)
            return .proceed
        }
        var context = TemplateContext(request: exchange.request, parameters: route.parameters, body: exchange.body,
                                      now: state.clock.now, state: state)
        context.user = exchange.user
        context.integerParameters = candidates.integerParameters
        let chosen: Answer
        switch choose(from: candidates, exchange: exchange, route: route, context: &context) {
        case .success(let answer): chosen = answer
        case .failure(let unknown):
            let names = candidates.named.map(\.name)
            return .answer(envelopes.refusal(
                status: 400, kind: "unknown_example",
                "no fixture or example named '\(unknown.name)' for '\(endpoint.id)'; available: \(names.joined(separator: ", "))",
                extra: [.init("available", .array(names.map(JSONValue.string)))], endpoint: endpoint.id, verdict: .noExample))
        }
        if chosen.code == 0, exchange.fault?.losesTheAnswer != true, let parts = exchange.parts {
            guard let stored = store(parts, of: endpoint, request: exchange.request) else {
                let budget = state.uploads.usage.budgetBytes
                return .answer(envelopes.refusal(status: 507, kind: "upload_store_full",
                                                 "the file is larger than the mock's whole upload budget of \(budget) bytes (--upload-budget)",
                                                 endpoint: endpoint.id, verdict: .error))
            }
            context.uploads = stored
        }
        // A body naming a file's content_type and size asks for a direct upload: `{{upload_policy…}}` reads the policy minted for it.
        if chosen.code == 0, endpoint.multipart == nil, case .string(let type)? = exchange.body?["content_type"], case .int(let size)? = exchange.body?["size"],
           (1...ByteSizeText.maxBytes).contains(size), let policy = UploadPolicy.issue(contentType: type, maxSize: size, now: state.clock.now) {
            context.uploadPolicy = policy.json(origin: origin.origin(for: exchange.request), key: state.cursorSecret)
        }
        // A fault that loses the answer stands for a failure before the backend: no tokens move.
        if chosen.hasTokenHoles && exchange.fault?.losesTheAnswer != true {
            let outcome: TokenGrant.Outcome? = if grant.isRefresh(endpoint.id) {
                grant.refresh(endpoint: endpoint.id, body: exchange.body)
            } else {
                chosen.loginUID.map { grant.login(endpoint: endpoint.id, uid: $0) }
            }
            switch outcome {
            case .refused(let response)?: return .answer(response)
            case .issued(let uid, let pair)?: (exchange.user, context.issued, exchange.tokensIssued) = (uid, pair, true)
            case nil: break
            }
        }
        if !chosen.effects.isEmpty && chosen.code == 0 && exchange.fault?.losesTheAnswer != true {
            do {
                let answer = try effects.run(chosen.effects, data: chosen.effectData, endpoint: endpoint, session: exchange.session, context: &context)
                exchange.response = render(chosen, answer: answer, endpoint: endpoint.id)
            } catch {
                return .answer(effects.response(for: error, endpoint: endpoint, label: chosen.label))
            }
            return .proceed
        }
        exchange.response = render(chosen, endpoint: endpoint.id, context: context)
        return .proceed
    }

    /// A binary endpoint's answer: the stored file its path parameter names, when it is
    /// of a declared media type; else the endpoint's not-found code (docs/mocks.md, "Uploads").
    private func storedFile(_ types: [String], endpoint: Endpoint, parameters: [String: String]) -> MockResponse {
        let id = endpoint.parameters.first.flatMap { parameters[$0.name] } ?? ""
        if let (file, bytes) = state.uploads.file(id), MediaTypes.matches(file.contentType, types) {
            return MockResponse(status: 200, headers: [("Content-Type", file.contentType), ("X-Content-Type-Options", "nosniff")],
                                body: .bytes(bytes), summary: .init(endpoint: endpoint.id, source: "storage", code: 0, verdict: .ok))
        }
        let code = endpoint.codes.first { envelopes.service.code($0)?.name.hasSuffix("not-found") == true }
        let data = JSONValue.object([.init("error", .string("not_found")),
                                     .init("message", .string("no stored file '\(id.prefix(64))' of \(types.joined(separator: ", "))"))])
        guard let code else {
            return envelopes.refusal(status: 404, kind: "not_found", "no stored file '\(id.prefix(64))'", endpoint: endpoint.id, verdict: .noRoute)
        }
        return envelopes.answer(code: code, fallback: "not found", data: data, endpoint: endpoint.id, verdict: .ok)
    }

    /// Keeps the request's file parts in the upload store (``MockEngine/storagePrefix``
    /// serves them back); what templates read of each, by part, or nil when one does not fit.
    private func store(_ parts: [MultipartBody.Part], of endpoint: Endpoint, request: MockRequest) -> [String: JSONValue]? {
        var stored: [String: JSONValue] = [:]
        let origin = origin.origin(for: request)
        for declared in endpoint.multipart ?? [] where declared.file != nil {
            guard let part = parts.first(where: { $0.name == declared.name }) else { continue }
            guard let file = state.uploads.store(Array(part.bytes), contentType: part.contentType ?? "application/octet-stream",
                                                 at: state.clock.now, id: nil) else { return nil }
            stored[declared.name] = file.json(origin: origin)
        }
        return stored
    }

    /// `Prefer: example=NAME` named an answer the endpoint does not have.
    struct UnknownExample: Error {
        var name: String
    }

    /// The answer to serve; the records its `when: {state: …}` found go into `context`.
    private func choose(from candidates: EndpointAnswers, exchange: Exchange, route: Route,
                        context: inout TemplateContext) -> Result<Answer, UnknownExample> {
        if let name = Self.preferredExample(exchange.request.headers["prefer"]) ?? exchange.fixture {
            guard let named = candidates.named.first(where: { $0.name == name }) else { return .failure(UnknownExample(name: name)) }
            // Named, it answers whether or not its state conditions hold; what they find, its templates read.
            if !named.conditions.isEmpty, let found = effects.check(named.conditions, session: exchange.session, context: context) {
                context.found = found
            }
            return .success(named)
        }
        let wantsStream = route.endpoint.stream.map { exchange.body?[$0.toggle] == .bool(true) } ?? false
        let matching = MatchContext(request: exchange.request, parameters: route.parameters, body: exchange.body)
        let fits = { (answer: Answer) in (answer.events != nil) == wantsStream }
        let snapshot = context
        for fixture in candidates.fixtures where fits(fixture) && matching.matches(fixture.matchers) {
            if fixture.conditions.isEmpty { return .success(fixture) }
            if let found = effects.check(fixture.conditions, session: exchange.session, context: snapshot) {
                context.found = found
                return .success(fixture)
            }
        }
        return .success(candidates.defaultFixture.flatMap { fits($0) ? $0 : nil }
            ?? (wantsStream ? candidates.generatedStream : nil)
            ?? candidates.examples.first { fits($0) && $0.code == 0 }
            ?? candidates.generated)
    }

    /// An answer whose `data` the effects built.
    private func render(_ chosen: Answer, answer: EffectAnswer, endpoint: String) -> MockResponse {
        let names = envelopes.service.envelope
        let message = envelopes.service.code(0)?.message ?? "ok"
        let bytes = answer.bytes { data in
            .object([.init(names.code, .int(0)), .init(names.message, .string(message)), .init(names.data, data)])
        }
        return MockResponse(status: chosen.status, headers: [("Content-Type", "application/json; charset=utf-8")] + chosen.headers,
                            body: .bytes(bytes), delayMilliseconds: chosen.delayMilliseconds,
                            summary: MockResponse.Summary(endpoint: endpoint, source: chosen.label, code: 0, verdict: .ok))
    }

    private func render(_ chosen: Answer, endpoint: String, context: TemplateContext) -> MockResponse {
        let summary = MockResponse.Summary(endpoint: endpoint, source: chosen.label, code: chosen.code, verdict: .ok)
        if let events = chosen.events {
            return MockResponse(
                status: chosen.status,
                headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache")] + chosen.headers,
                body: .events(events.map { .init(data: $0.data.render(context), delayMilliseconds: $0.delayMilliseconds) }
                              + [.init(data: Array("[DONE]".utf8))]),
                delayMilliseconds: chosen.delayMilliseconds, summary: summary
            )
        }
        return MockResponse(
            status: chosen.status, headers: [("Content-Type", "application/json; charset=utf-8")] + chosen.headers,
            body: .bytes(chosen.envelope?.render(context) ?? []), delayMilliseconds: chosen.delayMilliseconds, summary: summary
        )
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
