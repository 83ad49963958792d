import AccordJSON
internal import CCrypto

/// Digests and HMACs from OpenSSL's libcrypto.
public enum Digest {
    /// Lowercase hex MD5 of `bytes`.
    public static func md5Hex(_ bytes: some Sequence<UInt8>) -> String {
        Array(bytes).withUnsafeBufferPointer { evpHex($0, Algorithms.md5.pointer) }
    }

    /// Lowercase hex MD5 of the UTF-8 of `text`, hashed in place.
    public static func md5Hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { evpHex($0, Algorithms.md5.pointer) }
    }

    /// Lowercase hex SHA-256 of `bytes`.
    public static func sha256Hex(_ bytes: some Sequence<UInt8>) -> String {
        Array(bytes).withUnsafeBufferPointer { evpHex($0, Algorithms.sha256.pointer) }
    }

    /// Lowercase hex SHA-256 of the UTF-8 of `text`, hashed in place.
    public static func sha256Hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { evpHex($0, Algorithms.sha256.pointer) }
    }

    /// Lowercase hex SHA-1 of the UTF-8 of `text`: how Redis names a Lua script (`EVALSHA`), not a security measure.
    public static func sha1Hex(_ text: String) -> String {
        var text = text
        return text.withUTF8 { evpHex($0, Algorithms.sha1.pointer) }
    }

    /// Digest methods fetched once: OpenSSL 3 otherwise looks the method up on every
    /// call (`EVP_MD_fetch`), which cost a fifth of the signature check under load.
    private struct Algorithms: @unchecked Sendable {
        let pointer: OpaquePointer?

        static let md5 = Algorithms(pointer: EVP_MD_fetch(nil, "MD5", nil))
        static let sha256 = Algorithms(pointer: EVP_MD_fetch(nil, "SHA256", nil))
        static let sha1 = Algorithms(pointer: EVP_MD_fetch(nil, "SHA1", nil))
    }

    /// The raw MD5 of `message`.
    public static func md5(_ message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        evp(message, Algorithms.md5.pointer)
    }

    /// The raw SHA-256 of `message`.
    public static func sha256(_ message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        evp(message, Algorithms.sha256.pointer)
    }

    /// The bytes a hex string spells (either case), or nil if it is not an even run of hex digits.
    public static func bytes(fromHex text: String) -> [UInt8]? {
        // A native string's bytes in place: the generic UTF-8 iterator costs several times more a byte.
        if let decoded = text.utf8.withContiguousStorageIfAvailable(Self.bytes(fromHexDigits:)) { return decoded }
        return bytes(fromHexDigits: Array(text.utf8))
    }

    private static func bytes<Digits: Collection<UInt8>>(fromHexDigits digits: Digits) -> [UInt8]? {
        guard digits.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(digits.count / 2)
        // Two digits a byte; the count is even, so the second of a pair is always there.
        var index = digits.startIndex
        while index != digits.endIndex {
            let second = digits.index(after: index)
            guard let high = Hex.value(digits[index]), let low = Hex.value(digits[second]) else { return nil }
            bytes.append(high << 4 | low)
            index = digits.index(after: second)
        }
        return bytes
    }

    /// Lowercase hex HMAC-SHA256 of `bytes` under `key`.
    public static func hmacSHA256Hex(key: some Sequence<UInt8>, _ bytes: some Sequence<UInt8>) -> String {
        let message = Array(bytes)
        return Hex.lowercase(message.withUnsafeBufferPointer { hmacSHA256(key: Array(key), $0) })
    }

    /// The raw HMAC-SHA256 of `message` under `key`.
    public static func hmacSHA256(key: [UInt8], _ message: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = HMAC(EVP_sha256(), key, Int32(key.count), message.baseAddress, message.count, &output, &length)
        return Array(output.prefix(Int(length)))
    }

    /// Compares two byte strings in time that does not depend on where they differ.
    public static func constantTimeEquals(_ a: some Sequence<UInt8>, _ b: some Sequence<UInt8>) -> Bool {
        let a = Array(a), b = Array(b)
        guard a.count == b.count else { return false }
        return a.isEmpty || CRYPTO_memcmp(a, b, a.count) == 0
    }

    private static func evpHex(_ input: UnsafeBufferPointer<UInt8>, _ type: OpaquePointer?) -> String {
        Hex.lowercase(evp(input, type))
    }

    private static func evp(_ input: UnsafeBufferPointer<UInt8>, _ type: OpaquePointer?) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: Int(EVP_MAX_MD_SIZE)) { output, count in
            var length: UInt32 = 0
            _ = EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, type, nil)
            count = Int(length)
        }
    }
}
