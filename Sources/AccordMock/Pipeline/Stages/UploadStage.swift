import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState

/// Keeps the file parts of a multipart request in the upload store
/// (``MockEngine/storagePrefix`` serves them back) and, for a body naming a file's
/// `content_type` and `size`, mints the direct-upload policy `{{upload_policy…}}`
/// reads. Only for a successful answer the client gets.
struct UploadStage: Stage {
    let state: MockState
    let envelopes: Envelopes
    /// Where the URLs of stored files and upload policies point.
    let origin: PublicOrigin

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard exchange.draft?.answer.code == 0, exchange.answerIsDelivered, let route = exchange.route else { return try next(&exchange) }
        if let parts = exchange.parts {
            guard let stored = try store(parts, of: route.endpoint, request: exchange.request) else {
                let budget = try state.uploads.usage.budgetBytes
                return envelopes.refusal(status: 507, kind: "upload_store_full",
                                         "the file is larger than the mock's whole upload budget of \(budget) bytes (--upload-budget)", verdict: .error)
            }
            exchange.draft?.context.uploads = stored
        }
        if route.endpoint.multipart == nil, case .string(let type)? = exchange.body?["content_type"], case .int(let size)? = exchange.body?["size"],
           (1...ByteSizeText.maxBytes).contains(size) {
            let policy = UploadPolicy.issue(contentType: type, maxSize: size, now: try state.clock.now)
            exchange.draft?.context.uploadPolicy = policy.json(origin: origin.origin(for: exchange.request), key: try state.cursorSecret, signer: HMACSigner())
        }
        return try next(&exchange)
    }

    /// What templates read of each stored file part, by part, or nil when one does not fit.
    private func store(_ parts: [MultipartBody.Part], of endpoint: Endpoint, request: MockRequest) throws(StorageError) -> [String: JSONValue]? {
        var stored: [String: JSONValue] = [:]
        let origin = origin.origin(for: request)
        for declared in endpoint.multipart ?? [] where declared.file != nil {
            guard let part = parts.first(where: { $0.name == declared.name }) else { continue }
            guard let file = try state.uploads.store(Array(part.bytes), contentType: part.contentType ?? "application/octet-stream",
                                                 at: try state.clock.now, id: nil) else { return nil }
            stored[declared.name] = file.json(origin: origin)
        }
        return stored
    }
}
