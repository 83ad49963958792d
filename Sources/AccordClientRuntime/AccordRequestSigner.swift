import Foundation
#if canImport(CryptoKit)
import CryptoKit
#endif

/// Signs requests: `X-Sign = md5(app_key + timestamp + nonce + sorted_params + app_secret)`.
public nonisolated struct RequestSigner: Sendable {
    public let appKey: String
    public let appSecret: String

    public init(appKey: String, appSecret: String) {
        self.appKey = appKey
        self.appSecret = appSecret
    }

    /// The lowercase hex signature of a request.
    public func signature(timestamp: String, nonce: String, sortedParams: String) -> String {
        Self.md5Hex(Array((appKey + timestamp + nonce + sortedParams + appSecret).utf8))
    }

    /// The bytes a body is sent as, and signed from: `value` encoded, then written in
    /// the canonical form of the signing rule (members sorted by UTF-8 bytes at every
    /// level, numbers in shortest round-trip form), the same on every platform.
    public static func canonicalBody(_ value: some Encodable) throws -> Data {
        Data(try CanonicalJSON(parsing: Array(JSONEncoder().encode(value))).bytes)
    }

    /// `sorted_params`: the query items and the members of a JSON object body, sorted by
    /// key (UTF-8 bytes, stable), `key=value` joined by `&`; `null` members left out, nested
    /// values as canonical JSON.
    public static func sortedParams(query: [QueryItem], body: Data?) -> String {
        sortedParams(query: query, body: body.flatMap { try? CanonicalJSON(parsing: Array($0)) })
    }

    static func sortedParams(query: [QueryItem], body: CanonicalJSON?) -> String {
        var pairs = query.map { (key: $0.name, value: $0.value) }
        if case .object(let members)? = body {
            pairs += members.compactMap { member in member.value.parameterText.map { (key: member.key, value: $0) } }
        }
        return CanonicalJSON.sortedByName(pairs).map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }

    /// Lowercase hex MD5.
    static func md5Hex(_ bytes: [UInt8]) -> String {
        #if canImport(CryptoKit)
        return Insecure.MD5.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        #else
        return PortableMD5.hash(bytes).map { String(format: "%02x", $0) }.joined()
        #endif
    }
}
