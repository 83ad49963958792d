/// Percent-encoding of the pieces of a route's URL: everything but RFC 3986's
/// unreserved characters (`A–Z a–z 0–9 - . _ ~`), as the signing rule reads them back.
public enum PercentEncoding {
    /// A query name or value, or any other component.
    public static func component(_ text: String) -> String {
        let digits = Array("0123456789ABCDEF".unicodeScalars)
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(digits[Int(byte >> 4)])
                encoded.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return encoded
    }

    /// A path parameter's value: a component, with `.` and `..` escaped too, which HTTP
    /// stacks would otherwise resolve away as dot-segments.
    public static func pathSegment(_ text: String) -> String {
        text == "." || text == ".." ? text.replacingOccurrences(of: ".", with: "%2E") : component(text)
    }
}
