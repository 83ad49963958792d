import AccordContract
import AccordHTTP
import AccordJSON

/// A signed permission to `PUT` one file straight to the mock's storage, as an app gets
/// one from OSS or S3 through its backend: the file's id, media type, most bytes and
/// expiry, signed with the storage's key (``StateSigner``: HMAC-SHA256 on the server),
/// so the URL cannot be altered and works on every replica sharing the storage.
package struct UploadPolicy: Sendable, Equatable {
    /// How long a policy lasts: 15 minutes.
    package static let lifetime: Int64 = 900

    package var id: String
    package var contentType: String
    package var maxSize: Int
    package var expires: Int64

    /// A fresh policy for a file of `contentType` and at most `maxSize` bytes.
    package static func issue(contentType: String, maxSize: Int, now: Int64) -> UploadPolicy {
        UploadPolicy(id: SecureRandom.hex(16), contentType: contentType, maxSize: maxSize, expires: now + lifetime)
    }

    /// What the signature covers.
    private var signed: [UInt8] {
        Array("\(id)\n\(expires)\n\(contentType)\n\(maxSize)".utf8)
    }

    /// The query of the signed upload URL.
    package func query(key: [UInt8], signer: any StateSigner) -> String {
        "expires=\(expires)&type=\(PercentEncoding.component(contentType))&max=\(maxSize)&sig=\(signer.tag(signed, key: key))"
    }

    /// What `{{upload_policy…}}` reads: the upload URL, how to send to it, and where the file will be.
    package func json(origin: String, key: [UInt8], signer: any StateSigner) -> JSONValue {
        let location = origin + StoredFile.pathPrefix + id
        return .object([
            .init("upload_url", .string(location + "?" + query(key: key, signer: signer))), .init("method", .string("PUT")),
            .init("headers", .object([.init("Content-Type", .string(contentType))])), .init("max_size", .int(maxSize)),
            .init("content_types", .array([.string(contentType)])), .init("public_url", .string(location)),
            .init("expires_at", .string(RFC3339.format(unixSeconds: expires))),
        ])
    }

    /// The policy a `PUT` to `id` carries in its query, if its signature holds.
    package static func verified(id: String, query: [(name: String, value: String)], key: [UInt8], signer: any StateSigner) -> UploadPolicy? {
        func value(_ name: String) -> String? { query.first { $0.name == name }?.value }
        guard let expiresText = value("expires"), expiresText.utf8.count <= 12, let expires = Int64(expiresText),
              let contentType = value("type"), contentType.utf8.count <= 100,
              let maxText = value("max"), maxText.utf8.count <= 10, let maxSize = Int(maxText), maxSize > 0,
              let signature = value("sig") else { return nil }
        let policy = UploadPolicy(id: id, contentType: contentType, maxSize: maxSize, expires: expires)
        return signer.verifies(signature, of: policy.signed, key: key) ? policy : nil
    }
}
