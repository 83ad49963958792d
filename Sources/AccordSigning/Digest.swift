internal import CCrypto

/// Digests and random bytes from OpenSSL's libcrypto.
public enum Digest {
    /// Lowercase hex MD5 of `bytes`.
    public static func md5Hex(_ bytes: some Sequence<UInt8>) -> String {
        evpHex(Array(bytes), EVP_md5())
    }

    /// Lowercase hex SHA-256 of `bytes`.
    public static func sha256Hex(_ bytes: some Sequence<UInt8>) -> String {
        evpHex(Array(bytes), EVP_sha256())
    }

    /// Lowercase hex HMAC-SHA256 of `bytes` under `key`.
    public static func hmacSHA256Hex(key: some Sequence<UInt8>, _ bytes: some Sequence<UInt8>) -> String {
        let key = Array(key), message = Array(bytes)
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &output, &length)
        return hex(output.prefix(Int(length)))
    }

    /// Compares two byte strings in time that does not depend on where they differ.
    public static func constantTimeEquals(_ a: some Sequence<UInt8>, _ b: some Sequence<UInt8>) -> Bool {
        let a = Array(a), b = Array(b)
        guard a.count == b.count else { return false }
        return a.isEmpty || CRYPTO_memcmp(a, b, a.count) == 0
    }

    /// `count` cryptographically random bytes, or nil if the generator failed.
    public static func randomBytes(_ count: Int) -> [UInt8]? {
        var bytes = [UInt8](repeating: 0, count: count)
        return RAND_bytes(&bytes, Int32(count)) == 1 ? bytes : nil
    }

    private static func evpHex(_ bytes: [UInt8], _ type: OpaquePointer?) -> String {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = EVP_Digest(bytes, bytes.count, &output, &length, type, nil)
        return hex(output.prefix(Int(length)))
    }

    /// Lowercase hex of `bytes`.
    public static func hex(_ bytes: some Sequence<UInt8>) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
