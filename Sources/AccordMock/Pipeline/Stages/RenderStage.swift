import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState

/// The answer, last: an injected business code's; a binary endpoint's stored file;
/// else the chosen fixture rendered with what its templates read (or the `data` its
/// effects built), as an envelope or an event stream.
struct RenderStage: Stage {
    let state: MockState
    let envelopes: Envelopes

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        if let injected = exchange.injection?.answer { return injected }
        guard let route = exchange.route else { return try next(&exchange) }
        if let types = route.endpoint.binary { return try storedFile(types, endpoint: route.endpoint, parameters: exchange.parameters) }
        guard exchange.draft != nil else { return try next(&exchange) }
        return try render(&exchange.draft!)
    }

    /// The drafted answer, rendered (in place: a draft is large, and it is read once).
    private func render(_ draft: inout Draft) throws(StorageError) -> MockResponse {
        if let built = draft.built { return render(draft.answer, built: built) }
        return try render(draft.answer, context: draft.context)
    }

    /// A binary endpoint's answer: the stored file its path parameter names, when it is
    /// of a declared media type; else the endpoint's not-found code (docs/mocks.md, "Uploads").
    private func storedFile(_ types: [String], endpoint: Endpoint, parameters: [String: String]) throws(StorageError) -> MockResponse {
        let id = endpoint.parameters.first.flatMap { parameters[$0.name] } ?? ""
        if let (file, bytes) = try state.uploads.file(id), MediaTypes.matches(file.contentType, types) {
            return MockResponse(status: 200, headers: [("Content-Type", file.contentType), ("X-Content-Type-Options", "nosniff")],
                                body: .bytes(bytes), summary: .init(source: "storage", code: 0, verdict: .ok))
        }
        let code = endpoint.codes.first { envelopes.service.code($0)?.name.hasSuffix("not-found") == true }
        let data = JSONValue.object([.init("error", .string("not_found")),
                                     .init("message", .string("no stored file '\(id.prefix(64))' of \(types.joined(separator: ", "))"))])
        guard let code else {
            return envelopes.refusal(status: 404, kind: "not_found", "no stored file '\(id.prefix(64))'", verdict: .noRoute)
        }
        return envelopes.answer(code: code, fallback: "not found", data: data, verdict: .ok)
    }

    /// An answer whose body the effects built.
    private func render(_ chosen: Answer, built: [UInt8]) -> MockResponse {
        MockResponse(status: chosen.status, headers: [("Content-Type", "application/json; charset=utf-8")] + chosen.headers,
                     body: .bytes(built), delayMilliseconds: chosen.delayMilliseconds,
                     summary: MockResponse.Summary(source: chosen.label, code: 0, verdict: .ok))
    }

    private func render(_ chosen: Answer, context: TemplateContext) throws(StorageError) -> MockResponse {
        let summary = MockResponse.Summary(source: chosen.label, code: chosen.code, verdict: .ok)
        if let events = chosen.events {
            return MockResponse(
                status: chosen.status,
                headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache")] + chosen.headers,
                body: .events(try events.map { event throws(StorageError) in .init(data: try event.data.render(context), delayMilliseconds: event.delayMilliseconds) }
                              + [.init(data: Array("[DONE]".utf8))]),
                delayMilliseconds: chosen.delayMilliseconds, summary: summary
            )
        }
        return MockResponse(
            status: chosen.status, headers: [("Content-Type", envelopes.service.contentType(code: chosen.code))] + chosen.headers,
            body: .bytes(try chosen.envelope?.render(context) ?? []), delayMilliseconds: chosen.delayMilliseconds, summary: summary
        )
    }
}
