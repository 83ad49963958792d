/// Counts a string by its UTF-8 bytes, read where they lie: the generic
/// `unicodeScalars.count` steps an iterator a scalar at a time, at many times the cost.
public enum UTF8Text {
    /// How many Unicode scalars `text` holds (JSON Schema's characters): its bytes less
    /// those that continue a scalar (`10xxxxxx`).
    public static func scalarCount(_ text: String) -> Int {
        var text = text
        return text.withUTF8 { bytes in
            var continuations = 0
            for byte in bytes where byte & 0xC0 == 0x80 { continuations += 1 }
            return bytes.count - continuations
        }
    }
}
