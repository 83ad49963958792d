import AccordJSON

extension MockEngine {
    /// `GET /__storage/ID`: an uploaded file's bytes with the media type it was stored
    /// as; `HEAD` the same (the HTTP layer sends its head only). Files are public once stored, as in a
    /// bucket behind a CDN; their ids are 128 random bits.
    func storage(_ request: MockRequest) -> MockResponse {
        let id = String(request.path.dropFirst(Self.storagePrefix.count))
        guard request.method == "GET" || request.method == "HEAD" else {
            var response = storageError(405, "method_not_allowed", "\(Self.storagePrefix) serves files with GET and HEAD")
            response.headers.append(("Allow", "GET, HEAD"))
            return response
        }
        guard id.utf8.count == 32, id.utf8.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }),
              let (file, bytes) = state.uploads.file(id) else {
            return storageError(404, "file_not_found", "no stored file '\(id.prefix(64))' (evicted past the upload budget, or never stored)")
        }
        let headers: [(name: String, value: String)] = [
            ("Content-Type", file.contentType), ("X-Content-Type-Options", "nosniff"),
            ("Cache-Control", "public, max-age=31536000, immutable"),
        ]
        return MockResponse(status: 200, headers: headers, body: .bytes(bytes),
                            summary: .init(source: "storage", verdict: .ok))
    }

    private func storageError(_ status: Int, _ kind: String, _ message: String) -> MockResponse {
        MockResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")],
                     body: .bytes(JSONWriter.bytes(.object([.init("error", .string(kind)), .init("message", .string(message))]))),
                     summary: .init(source: "storage", verdict: status == 404 ? .noRoute : .method))
    }
}
