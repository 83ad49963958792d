/// What tells one bearer token from another in a journal or a report, without the token:
/// 16 hex digits of FNV-1a (64 bits) of the `Authorization` value. Tokens are long and
/// random, so two never share a tag in practice, and a tag gives no token away.
public enum TokenTag {
    /// The tag of `authorization` (`Bearer at_3f9c…`); nil for an empty value.
    public static func of(authorization: String) -> String? {
        guard !authorization.isEmpty else { return nil }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in authorization.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }
}
