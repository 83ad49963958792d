import Foundation
#if canImport(CryptoKit)
import CryptoKit
#endif

/// Signs requests: `X-Sign = md5(app_key + timestamp + nonce + sorted_params + app_secret)`.
public struct RequestSigner: Sendable {
    public let appKey: String
    public let appSecret: String

    public init(appKey: String, appSecret: String) {
        self.appKey = appKey
        self.appSecret = appSecret
    }

    /// The lowercase hex signature of a request.
    public func signature(timestamp: String, nonce: String, sortedParams: String) -> String {
        Self.md5Hex(Array((appKey + timestamp + nonce + sortedParams + appSecret).utf8))
    }

    /// `sorted_params`: the query items and the members of a JSON object body, sorted by
    /// key (UTF-8 bytes, stable), `key=value` joined by `&`; `null` members left out.
    public static func sortedParams(query: [QueryItem], body: Data?) -> String {
        var pairs = query.map { (key: $0.name, value: $0.value) }
        if let body { pairs += Self.members(of: Array(body)) }
        let sorted = pairs.enumerated().sorted { lhs, rhs in
            lhs.element.key == rhs.element.key ? lhs.offset < rhs.offset
                : lhs.element.key.utf8.lexicographicallyPrecedes(rhs.element.key.utf8)
        }
        return sorted.map { "\($0.element.key)=\($0.element.value)" }.joined(separator: "&")
    }

    /// The top-level members of a compact JSON object (as `JSONEncoder` writes it with
    /// sorted keys and unescaped slashes): strings unescaped, `null` skipped, other
    /// values as their JSON text.
    static func members(of json: [UInt8]) -> [(key: String, value: String)] {
        guard json.first == UInt8(ascii: "{") else { return [] }
        var members: [(String, String)] = []
        var index = 1
        while index < json.count, json[index] == UInt8(ascii: "\"") {
            let (key, closingQuote) = string(json, from: index)
            index = closingQuote + 2 // past the quote and the ':'
            let start = index
            var depth = 0
            var inString = false
            while index < json.count {
                let byte = json[index]
                if inString {
                    if byte == UInt8(ascii: "\\") { index += 1 } else if byte == UInt8(ascii: "\"") { inString = false }
                } else if byte == UInt8(ascii: "\"") {
                    inString = true
                } else if byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[") {
                    depth += 1
                } else if byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") {
                    if depth == 0 { break }
                    depth -= 1
                } else if byte == UInt8(ascii: ","), depth == 0 {
                    break
                }
                index += 1
            }
            let raw = Array(json[start..<index])
            if raw.first == UInt8(ascii: "\"") {
                members.append((key, string(raw, from: 0).text))
            } else if raw != Array("null".utf8) {
                members.append((key, String(decoding: raw, as: UTF8.self)))
            }
            index += 1 // ',' or '}'
        }
        return members
    }

    /// The JSON string starting at `start`, unescaped, and the index of its closing quote.
    private static func string(_ json: [UInt8], from start: Int) -> (text: String, end: Int) {
        var bytes: [UInt8] = []
        var index = start + 1
        while index < json.count, json[index] != UInt8(ascii: "\"") {
            guard json[index] == UInt8(ascii: "\\"), index + 1 < json.count else {
                bytes.append(json[index])
                index += 1
                continue
            }
            let escape = json[index + 1]
            index += 2
            switch escape {
            case UInt8(ascii: "n"): bytes.append(0x0A)
            case UInt8(ascii: "r"): bytes.append(0x0D)
            case UInt8(ascii: "t"): bytes.append(0x09)
            case UInt8(ascii: "b"): bytes.append(0x08)
            case UInt8(ascii: "f"): bytes.append(0x0C)
            case UInt8(ascii: "u"):
                var code = UInt32(String(decoding: json[index..<min(index + 4, json.count)], as: UTF8.self), radix: 16) ?? 0xFFFD
                index += 4
                if (0xD800..<0xDC00).contains(code), index + 6 <= json.count, json[index] == UInt8(ascii: "\\") {
                    let low = UInt32(String(decoding: json[index + 2..<index + 6], as: UTF8.self), radix: 16) ?? 0
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                    index += 6
                }
                bytes += Array(String(Character(Unicode.Scalar(code) ?? "\u{FFFD}")).utf8)
            default: bytes.append(escape)
            }
        }
        return (String(decoding: bytes, as: UTF8.self), index)
    }

    /// Lowercase hex MD5.
    static func md5Hex(_ bytes: [UInt8]) -> String {
        #if canImport(CryptoKit)
        return Insecure.MD5.hash(data: bytes).map { String(format: "%02x", $0) }.joined()
        #else
        return PortableMD5.hash(bytes).map { String(format: "%02x", $0) }.joined()
        #endif
    }
}

#if !canImport(CryptoKit)
/// MD5 (RFC 1321) for platforms without CryptoKit.
enum PortableMD5 {
    private static let shifts: [UInt32] = [7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22, 7, 12, 17, 22,
                                           5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20, 5, 9, 14, 20,
                                           4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23, 4, 11, 16, 23,
                                           6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21, 6, 10, 15, 21]
    private static let constants: [UInt32] = (0..<64).map { UInt32(truncatingIfNeeded: Int64(abs(sin(Double($0 + 1))) * 4_294_967_296)) }

    static func hash(_ message: [UInt8]) -> [UInt8] {
        var bytes = message
        bytes.append(0x80)
        while bytes.count % 64 != 56 { bytes.append(0) }
        let bits = UInt64(message.count) &* 8
        for shift in stride(from: 0, to: 64, by: 8) { bytes.append(UInt8(truncatingIfNeeded: bits >> UInt64(shift))) }
        var a0: UInt32 = 0x6745_2301, b0: UInt32 = 0xEFCD_AB89, c0: UInt32 = 0x98BA_DCFE, d0: UInt32 = 0x1032_5476
        for chunk in stride(from: 0, to: bytes.count, by: 64) {
            let words = (0..<16).map { index -> UInt32 in
                let base = chunk + index * 4
                return UInt32(bytes[base]) | UInt32(bytes[base + 1]) << 8 | UInt32(bytes[base + 2]) << 16 | UInt32(bytes[base + 3]) << 24
            }
            var (a, b, c, d) = (a0, b0, c0, d0)
            for i in 0..<64 {
                var f: UInt32
                let g: Int
                switch i {
                case 0..<16: f = (b & c) | (~b & d); g = i
                case 16..<32: f = (d & b) | (~d & c); g = (5 * i + 1) % 16
                case 32..<48: f = b ^ c ^ d; g = (3 * i + 5) % 16
                default: f = c ^ (b | ~d); g = (7 * i) % 16
                }
                f = f &+ a &+ constants[i] &+ words[g]
                a = d
                d = c
                c = b
                b = b &+ (f << shifts[i] | f >> (32 - shifts[i]))
            }
            a0 = a0 &+ a; b0 = b0 &+ b; c0 = c0 &+ c; d0 = d0 &+ d
        }
        return [a0, b0, c0, d0].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * UInt32($0))) } }
    }
}
#endif
