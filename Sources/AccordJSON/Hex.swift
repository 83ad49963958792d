/// Hexadecimal digits, as `\u` escapes in JSON, `%XX` escapes in URLs and digests
/// written as text spell them.
public enum Hex {
    /// The value of one hex digit (either case), or nil.
    @inlinable @inline(__always)
    public static func value(_ digit: UInt8) -> UInt8? {
        if digit >= 0x30 && digit <= 0x39 { return digit - 0x30 }
        let folded = digit | 0x20
        if folded >= 0x61 && folded <= 0x66 { return folded - 0x61 + 10 }
        return nil
    }

    /// The lowercase hex digit of the low four bits of `value`: `0x0B` → `b`.
    @inline(__always)
    public static func lowercaseDigit(_ value: UInt8) -> UInt8 {
        let digits: StaticString = "0123456789abcdef"
        return digits.utf8Start[Int(value & 0x0F)]
    }

    /// `bytes` in lowercase hex, two digits each: `[0xAB, 0x01]` → `ab01`.
    public static func lowercase(_ bytes: [UInt8]) -> String {
        String(unsafeUninitializedCapacity: bytes.count * 2) { text in
            var index = 0
            for byte in bytes {
                text[index] = lowercaseDigit(byte >> 4)
                text[index + 1] = lowercaseDigit(byte)
                index += 2
            }
            return index
        }
    }
}
