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
        let blank: (UInt8) -> Bool = { $0 == 0x20 || $0 == 0x09 }
        let bare = type.utf8.prefix { $0 != UInt8(ascii: ";") }.drop(while: blank)
        var end = bare.endIndex
        while end > bare.startIndex, blank(bare[bare.index(before: end)]) { end = bare.index(before: end) }
        let bytes = bare[..<end]
        func lowered(_ byte: UInt8) -> UInt8 { (0x41...0x5A).contains(byte) ? byte | 0x20 : byte }
        func hasPrefix(_ text: String) -> Bool { bytes.count >= text.utf8.count && zip(bytes, text.utf8).allSatisfy { lowered($0) == $1 } }
        func hasSuffix(_ text: String) -> Bool {
            bytes.count >= text.utf8.count && zip(bytes.suffix(text.utf8.count), text.utf8).allSatisfy { lowered($0) == $1 }
        }
        let application = "application/".utf8.count
        return (bytes.count == "application/json".utf8.count && hasPrefix("application/json"))
            || (bytes.count > application + "+json".utf8.count && hasPrefix("application/") && hasSuffix("+json"))
    }
}
