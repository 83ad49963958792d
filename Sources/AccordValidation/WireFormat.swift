import Foundation

/// The string formats of the contract's primitive types, checked byte by byte.
enum WireFormat {
    /// `-?digits(.digits)?`, the wire form of `decimal`.
    static func isDecimal(_ text: String) -> Bool {
        var bytes = Substring(text).utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        let parts = bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return (1...2).contains(parts.count) && parts.allSatisfy { !$0.isEmpty && $0.allSatisfy(isDigit) }
    }

    /// `yyyy-MM-dd`, a real calendar day.
    static func isDate(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 10 && isDate(bytes[...])
    }

    /// RFC 3339: `yyyy-MM-ddTHH:mm:ss(.fraction)?(Z|±HH:mm)`.
    static func isDateTime(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard bytes.count >= 20, isDate(bytes[0..<10]), bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"),
              let hour = number(bytes[11..<13]), bytes[13] == UInt8(ascii: ":"), let minute = number(bytes[14..<16]),
              bytes[16] == UInt8(ascii: ":"), let second = number(bytes[17..<19]),
              hour < 24, minute < 60, second <= 60
        else { return false }
        var rest = bytes[19...]
        if rest.first == UInt8(ascii: ".") {
            let digits = rest.dropFirst().prefix(while: isDigit)
            guard !digits.isEmpty else { return false }
            rest = rest.dropFirst(1 + digits.count)
        }
        if rest.elementsEqual([UInt8(ascii: "Z")]) || rest.elementsEqual([UInt8(ascii: "z")]) { return true }
        guard rest.count == 6, rest.first == UInt8(ascii: "+") || rest.first == UInt8(ascii: "-"),
              let offsetHour = number(rest.dropFirst().prefix(2)), rest.dropFirst(3).first == UInt8(ascii: ":"),
              let offsetMinute = number(rest.suffix(2))
        else { return false }
        return offsetHour < 24 && offsetMinute < 60
    }

    /// An absolute URL with a scheme and a host.
    static func isURL(_ text: String) -> Bool {
        if text.utf8.withContiguousStorageIfAvailable(isPlainWebURL) == true { return true }
        guard let url = URL(string: text), let scheme = url.scheme, !scheme.isEmpty else { return false }
        return url.host?.isEmpty == false
    }

    /// Whether `bytes` is an `http` or `https` URL that Foundation's parser takes, with a
    /// host, for certain: a host of letters, digits, dots and hyphens, then a path and
    /// query of unreserved characters, sub-delimiters, `:`, `@`, `/` and `?` alone. The
    /// URLs of most answers are such; one with a port, user info, a percent escape, a
    /// fragment or anything else is left to the parser (about 4,000 instructions).
    private static func isPlainWebURL(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        let start: Int
        if hasPrefix(bytes, "https://") {
            start = 8
        } else if hasPrefix(bytes, "http://") {
            start = 7
        } else {
            return false
        }
        var index = start
        while index < bytes.count, hostBytes.contains(bytes[index]) { index += 1 }
        // The host, not empty, ends where the text, its path or its query begins.
        guard index > start, index == bytes.count || bytes[index] == UInt8(ascii: "/") || bytes[index] == UInt8(ascii: "?") else { return false }
        while index < bytes.count, pathOrQueryBytes.contains(bytes[index]) { index += 1 }
        return index == bytes.count
    }

    private static func hasPrefix(_ bytes: UnsafeBufferPointer<UInt8>, _ prefix: StaticString) -> Bool {
        prefix.withUTF8Buffer { prefix in
            bytes.count >= prefix.count && !(0..<prefix.count).contains { bytes[$0] != prefix[$0] }
        }
    }

    private static let hostBytes = ASCIISet(letters + digits + ".-")
    /// RFC 3986's unreserved characters and sub-delimiters, `:`, `@`, `/` and `?`.
    private static let pathOrQueryBytes = ASCIISet(letters + digits + "-._~!$&'()*+,;=:@/?")
    private static let letters = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
    private static let digits = "0123456789"

    private static func isDate(_ bytes: ArraySlice<UInt8>) -> Bool {
        let start = bytes.startIndex
        guard let year = number(bytes[start..<start + 4]), bytes[start + 4] == UInt8(ascii: "-"),
              let month = number(bytes[start + 5..<start + 7]), bytes[start + 7] == UInt8(ascii: "-"),
              let day = number(bytes[start + 8..<start + 10]), (1...12).contains(month)
        else { return false }
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let days = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][month - 1]
        return (1...days).contains(day)
    }

    private static func number(_ bytes: some Collection<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.allSatisfy(isDigit) else { return nil }
        return bytes.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
}

/// A set of ASCII bytes as two 64-bit masks: a membership test is a shift and a mask.
private struct ASCIISet {
    private var low: UInt64 = 0
    private var high: UInt64 = 0

    init(_ characters: String) {
        for byte in characters.utf8 where byte < 128 {
            if byte < 64 { low |= 1 << byte } else { high |= 1 << (byte - 64) }
        }
    }

    func contains(_ byte: UInt8) -> Bool {
        byte < 64 ? low & (1 << byte) != 0 : byte < 128 && high & (1 << (byte - 64)) != 0
    }
}
