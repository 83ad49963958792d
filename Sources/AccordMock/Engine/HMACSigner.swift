import AccordCrypto
import AccordMockState

/// The server's ``StateSigner``: HMAC-SHA256 (OpenSSL) under the storage's secret, the
/// first 32 hex digits, checked in constant time.
struct HMACSigner: StateSigner {
    func tag(_ message: [UInt8], key: [UInt8]) -> String {
        String(Digest.hmacSHA256Hex(key: key, message).prefix(32))
    }

    func verifies(_ tag: String, of message: [UInt8], key: [UInt8]) -> Bool {
        Digest.constantTimeEquals(Array(tag.utf8), Array(self.tag(message, key: key).utf8))
    }
}
