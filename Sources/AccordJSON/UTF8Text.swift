/// Orders and counts a string by its UTF-8 bytes, read where they lie: the generic
/// `utf8.lexicographicallyPrecedes` and `unicodeScalars.count` step an iterator a byte
/// or a scalar at a time, at ten to twenty times the cost.
public enum UTF8Text {
    /// Whether `a`'s UTF-8 bytes sort before `b`'s: the order of canonical JSON's members
    /// and of the signing rule's keys.
    public static func precedes(_ a: String, _ b: String) -> Bool {
        var a = a, b = b
        return a.withUTF8 { x in
            b.withUTF8 { y in
                // Keys mostly differ early: a loop beats the call of memcmp.
                for index in 0..<min(x.count, y.count) where x[index] != y[index] { return x[index] < y[index] }
                return x.count < y.count
            }
        }
    }

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
