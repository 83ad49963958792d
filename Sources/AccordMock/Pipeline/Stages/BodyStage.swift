import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState

/// Decodes the JSON body of an endpoint that takes one: 415 for another media type,
/// 400 with the line and column of the first problem for a body that is not JSON.
struct BodyStage: Stage {
    let envelopes: Envelopes

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard !exchange.request.body.isEmpty, let route = exchange.route else { return try next(&exchange) }
        if let refusal = route.endpoint.multipart != nil ? multipart(&exchange, route: route) : json(&exchange, route: route) {
            return refusal
        }
        return try next(&exchange)
    }

    /// Decodes a JSON body; the refusal when it cannot.
    private func json(_ exchange: inout Exchange, route: Route) -> MockResponse? {
        let request = exchange.request
        guard route.endpoint.body != nil else { return nil }
        let contentType = request.headers["content-type"] ?? ""
        guard MediaTypes.isJSON(contentType) else {
            return envelopes.refuse(
                &exchange, status: 415, kind: "unsupported_media_type",
                "'\(route.endpoint.id)' takes application/json, found '\(contentType.isEmpty ? "no Content-Type" : contentType)'",
                verdict: .mediaType)
        }
        do {
            exchange.body = try JSONReader.read(request.body)
            return nil
        } catch {
            var position: [JSONValue.Member] = [.init("offset", .int(error.offset)), .init("line", .int(error.line)),
                                                .init("column", .int(error.column))]
            if let first = error.firstOccurrence {
                position.append(.init("first", .object([.init("line", .int(first.line)), .init("column", .int(first.column))])))
            }
            return envelopes.refuse(&exchange, status: 400, kind: "malformed_json", "the body is not JSON: \(error)", extra: position,
                                    verdict: .malformed)
        }
    }

    /// Splits a `multipart/form-data` body into its parts; the text parts become the body
    /// object templates read and the signature covers (files are not signed).
    private func multipart(_ exchange: inout Exchange, route: Route) -> MockResponse? {
        let request = exchange.request
        let contentType = request.headers["content-type"] ?? ""
        guard let boundary = MultipartBody.boundary(of: contentType) else {
            return envelopes.refuse(
                &exchange, status: 415, kind: "unsupported_media_type",
                "'\(route.endpoint.id)' takes multipart/form-data, found '\(contentType.isEmpty ? "no Content-Type" : contentType)'",
                verdict: .mediaType)
        }
        do {
            let body = try MultipartBody(request.body, boundary: boundary)
            exchange.parts = body.parts
            let files = Set((route.endpoint.multipart ?? []).filter { $0.file != nil }.map(\.name))
            // A part is a file part by the contract, not by its headers: a text part sent with a `filename` is still signed and validated.
            exchange.body = .object(body.parts.filter { !files.contains($0.name) }.map { .init($0.name, .string($0.text)) })
            return nil
        } catch {
            return envelopes.refuse(&exchange, status: 400, kind: "malformed_multipart", "the body is not multipart/form-data: \(error.message)",
                                    verdict: .malformed)
        }
    }
}
