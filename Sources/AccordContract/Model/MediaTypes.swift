/// Media types as contracts list them (`multipart` file parts, `binary` answers).
public enum MediaTypes {
    /// Whether `type` is one of `allowed`; `image/*` admits every image type.
    public static func matches(_ type: String, _ allowed: [String]) -> Bool {
        allowed.contains { pattern in
            pattern == type || (pattern.hasSuffix("/*") && type.count > pattern.count - 1 && type.hasPrefix(pattern.dropLast()))
        }
    }

    /// Whether `type` is JSON: `application/json` or a `+json` type such as
    /// `application/problem+json` (RFC 6839), with or without parameters such as
    /// `charset=utf-8`, in any case. Read byte by byte: every request body asks.
    public static func isJSON(_ type: String) -> Bool {
        var type = type
        return type.withUTF8(isJSON)
    }

    private static func isJSON(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var start = 0, end = 0
        while end < bytes.count, bytes[end] != UInt8(ascii: ";") { end += 1 }
        while start < end, bytes[start] == 0x20 || bytes[start] == 0x09 { start += 1 }
        while end > start, bytes[end - 1] == 0x20 || bytes[end - 1] == 0x09 { end -= 1 }
        /// Whether the bytes from `offset` spell `text` in any case.
        func spells(_ text: StaticString, at offset: Int) -> Bool {
            guard offset >= start, offset + text.utf8CodeUnitCount <= end else { return false }
            for index in 0..<text.utf8CodeUnitCount {
                let byte = bytes[offset + index]
                if (byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte) != text.utf8Start[index] { return false }
            }
            return true
        }
        guard spells("application/", at: start) else { return false }
        let subtype = start + 12
        return (end - subtype == 4 && spells("json", at: subtype)) || (end - subtype > 5 && spells("+json", at: end - 5))
    }
}
