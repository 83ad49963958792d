import AccordHTTP
import AccordJSON
import AccordMockState

extension MockEngine {
    /// `GET /__storage/ID`: an uploaded file's bytes with the media type it was stored
    /// as; `HEAD` the same (the HTTP layer sends its head only). Files are public once stored, as in a
    /// bucket behind a CDN; their ids are 128 random bits.
    func storage(_ request: MockRequest) throws(StorageError) -> MockResponse {
        let id = String(request.path.dropFirst(Self.storagePrefix.count))
        let isFileID = id.utf8.count == 32 && id.utf8.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
        if request.method == "PUT" { return try put(request, id: isFileID ? id : nil) }
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = storageError(405, "method_not_allowed", "\(Self.storagePrefix) serves files with GET and HEAD, and takes them with a signed PUT")
            response.headers.append(("Allow", "GET, HEAD, PUT"))
            return response
        }
        guard isFileID, let (file, bytes) = try state.uploads.file(id) else {
            return storageError(404, "file_not_found", "no stored file '\(id.prefix(64))' (evicted past the upload budget, or never stored)")
        }
        let headers: [(name: String, value: String)] = [
            ("Content-Type", file.contentType), ("X-Content-Type-Options", "nosniff"),
            ("Cache-Control", "public, max-age=31536000, immutable"),
        ]
        return MockResponse(status: 200, headers: headers, body: .bytes(bytes),
                            summary: .init(source: "storage", verdict: .ok))
    }

    /// `PUT /__storage/ID?expires=…&type=…&max=…&sig=…`: a direct upload under a policy
    /// the mock signed (``UploadPolicy``): the signature, its expiry on the mock clock, the
    /// media type it names, its size and the bytes' magic are each checked, then the file
    /// is stored under the policy's id and its public URL answers it.
    private func put(_ request: MockRequest, id: String?) throws(StorageError) -> MockResponse {
        if request.bodyLimitExceeded { return storageError(413, "body_too_large", "the file is larger than the server's body limit") }
        guard let id, let policy = UploadPolicy.verified(id: id, query: request.query, key: try state.cursorSecret, signer: HMACSigner()) else {
            return storageError(403, "policy_invalid", "this upload URL was not signed by this server, or was changed; ask the API for a new upload policy")
        }
        guard try state.clock.now <= policy.expires else {
            return storageError(403, "policy_expired", "the upload policy expired at \(RFC3339.format(unixSeconds: policy.expires)); ask the API for a new one")
        }
        let sent = (request.headers["content-type"] ?? "").split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        guard sent == policy.contentType else {
            return storageError(415, "content_type_mismatch", "the policy is for \(policy.contentType), the PUT sends '\(sent.isEmpty ? "no Content-Type" : sent)'")
        }
        guard request.body.count <= policy.maxSize else {
            return storageError(413, "file_too_large", "the file is \(request.body.count) bytes; the policy allows at most \(policy.maxSize)")
        }
        let sniffed = MediaSniffing.mediaType(of: request.body[...])
        if policy.contentType.hasPrefix("image/"), sniffed != policy.contentType {
            let found = sniffed ?? MediaSniffing.describe(request.body[...])
            return storageError(422, "content_mismatch", "the file is sent as \(policy.contentType) but its bytes are \(found)")
        }
        guard let file = try state.uploads.store(request.body, contentType: policy.contentType, at: try state.clock.now, id: policy.id) else {
            return storageError(507, "upload_store_full", "the file is larger than the mock's whole upload budget of \(try state.uploads.usage.budgetBytes) bytes")
        }
        let origin = options.publicOrigin.origin(for: request)
        return MockResponse(status: 200, headers: [("Content-Type", "application/json; charset=utf-8")],
                            body: .bytes(JSONWriter.bytes(file.json(origin: origin))), summary: .init(source: "storage", verdict: .ok))
    }

    private func storageError(_ status: Int, _ kind: String, _ message: String) -> MockResponse {
        MockResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
                     body: .bytes(JSONWriter.bytes(.object([.init("error", .string(kind)), .init("message", .string(message))]))),
                     summary: .init(source: "storage", verdict: status == 404 ? .noRoute : status == 405 ? .method : .invalid))
    }
}
