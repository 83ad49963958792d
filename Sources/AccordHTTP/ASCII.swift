/// ASCII-only text helpers for HTTP tokens (header names, media types), which avoid
/// the cost of Unicode case mapping on every request.
public enum ASCII {
    /// `text` with A–Z lowered; returns `text` itself when there is nothing to lower.
    public static func lowercased(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 >= 0x41 && $0 <= 0x5A }) else { return text }
        return String(unsafeUninitializedCapacity: text.utf8.count) { buffer in
            var index = 0
            for byte in text.utf8 {
                buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                index += 1
            }
            return index
        }
    }
}

extension ASCII {
    /// Whether `needle` occurs in `text`, byte for byte (`json` in a media type), without
    /// the Unicode-aware search `String.contains` makes.
    public static func contains(_ text: String, _ needle: StaticString) -> Bool {
        needle.withUTF8Buffer { needle in
            guard let first = needle.first else { return true }
            var text = text
            return text.withUTF8 { bytes in
                guard bytes.count >= needle.count else { return false }
                for start in 0...(bytes.count - needle.count) where bytes[start] == first {
                    if (1..<needle.count).allSatisfy({ bytes[start + $0] == needle[$0] }) { return true }
                }
                return false
            }
        }
    }

    /// Whether `a` and `b` are the same text with A–Z and a–z taken as one (header
    /// names), compared byte by byte without making a lowered copy of either.
    public static func equalsIgnoringCase(_ a: String, _ b: String) -> Bool {
        guard a.utf8.count == b.utf8.count else { return false }
        // Names are mostly written the same way (`Content-Type` asked of `Content-Type`):
        // equal bytes answer at once, the rest are compared where they lie.
        if a == b { return true }
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                for index in 0..<x.count where x[index] != y[index] {
                    let lowered = x[index] | 0x20
                    guard lowered == y[index] | 0x20, lowered >= 0x61, lowered <= 0x7A else { return false }
                }
                return true
            }
        }
    }
}

extension ASCII {
    /// The `count` bytes at `text` as a String with A–Z lowered, in one pass (header
    /// names as the transport hands them over, with their length).
    public static func lowercased(_ text: UnsafePointer<CChar>, count: Int) -> String {
        text.withMemoryRebound(to: UInt8.self, capacity: count) { bytes in
            String(unsafeUninitializedCapacity: count) { buffer in
                for index in 0..<count {
                    let byte = bytes[index]
                    buffer[index] = byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte
                }
                return count
            }
        }
    }
}

extension ASCII {
    /// `text` without leading and trailing spaces and tabs (optional whitespace in HTTP fields).
    public static func trimmed(_ text: Substring) -> Substring {
        var start = text.utf8.startIndex, end = text.utf8.endIndex
        while start < end, text.utf8[start] == 0x20 || text.utf8[start] == 0x09 { start = text.utf8.index(after: start) }
        while end > start, let last = text.utf8[..<end].last, last == 0x20 || last == 0x09 { end = text.utf8.index(before: end) }
        return text[start..<end]
    }
}

extension ASCII {
    /// A byte as `0x0d`, for messages about the bytes a peer sent.
    public static func hex(_ byte: UInt8) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: [UInt8(ascii: "0"), UInt8(ascii: "x"), digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]], as: UTF8.self)
    }
}
