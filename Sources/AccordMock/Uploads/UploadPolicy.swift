import AccordContract
import AccordCrypto
import AccordHTTP
import AccordJSON

/// A signed permission to `PUT` one file straight to the mock's storage, as an app gets
/// one from OSS or S3 through its backend: the file's id, media type, most bytes and
/// expiry, signed with the storage's key (HMAC-SHA256), so the URL cannot be altered
/// and works on every replica sharing the storage.
struct UploadPolicy: Sendable, Equatable {
    /// How long a policy lasts: 15 minutes.
    static let lifetime: Int64 = 900

    var id: String
    var contentType: String
    var maxSize: Int
    var expires: Int64

    /// A fresh policy for a file of `contentType` and at most `maxSize` bytes.
    static func issue(contentType: String, maxSize: Int, now: Int64) -> UploadPolicy? {
        guard let random = Digest.randomBytes(16) else { return nil }
        return UploadPolicy(id: Digest.hex(random), contentType: contentType, maxSize: maxSize, expires: now + lifetime)
    }

    func signature(key: [UInt8]) -> String {
        String(Digest.hmacSHA256Hex(key: key, Array("\(id)\n\(expires)\n\(contentType)\n\(maxSize)".utf8)).prefix(32))
    }

    /// The query of the signed upload URL.
    func query(key: [UInt8]) -> String {
        "expires=\(expires)&type=\(PercentEncoding.component(contentType))&max=\(maxSize)&sig=\(signature(key: key))"
    }

    /// What `{{upload_policy…}}` reads: the upload URL, how to send to it, and where the file will be.
    func json(origin: String, key: [UInt8]) -> JSONValue {
        let location = origin + MockEngine.storagePrefix + id
        return .object([
            .init("upload_url", .string(location + "?" + query(key: key))), .init("method", .string("PUT")),
            .init("headers", .object([.init("Content-Type", .string(contentType))])), .init("max_size", .int(maxSize)),
            .init("content_types", .array([.string(contentType)])), .init("public_url", .string(location)),
            .init("expires_at", .string(RFC3339.format(unixSeconds: expires))),
        ])
    }

    /// The policy a `PUT` to `id` carries in its query, if its signature holds.
    static func verified(id: String, query: [(name: String, value: String)], key: [UInt8]) -> UploadPolicy? {
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        guard let expiresText = value("expires"), expiresText.utf8.count <= 12, let expires = Int64(expiresText),
              let contentType = value("type"), contentType.utf8.count <= 100,
              let maxText = value("max"), maxText.utf8.count <= 10, let maxSize = Int(maxText), maxSize > 0,
              let signature = value("sig") else { return nil }
        let policy = UploadPolicy(id: id, contentType: contentType, maxSize: maxSize, expires: expires)
        return Digest.constantTimeEquals(Array(signature.utf8), Array(policy.signature(key: key).utf8)) ? policy : nil
    }
}
