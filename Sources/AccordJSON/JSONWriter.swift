/// Writes ``JSONValue``s as compact UTF-8 JSON: no spaces, `/` and non-ASCII left
/// unescaped, integers in decimal and other numbers in shortest round-trip form.
///
/// This is also the canonical form the signing rule uses for arrays and objects
/// (with `sortedKeys`), so the mock server and every client agree byte for byte.
public enum JSONWriter {
    /// The bytes of `value`; with `sortedKeys`, members ordered by the UTF-8 bytes of their names.
    public static func bytes(_ value: JSONValue, sortedKeys: Bool = false) -> [UInt8] {
        var output: [UInt8] = []
        output.reserveCapacity(256)
        write(value, sortedKeys: sortedKeys, into: &output)
        return output
    }

    /// The text of `value`.
    public static func string(_ value: JSONValue, sortedKeys: Bool = false) -> String {
        String(decoding: bytes(value, sortedKeys: sortedKeys), as: UTF8.self)
    }

    /// Appends `value` to `output`.
    public static func write(_ value: JSONValue, sortedKeys: Bool = false, into output: inout [UInt8]) {
        switch value {
        case .null: output += "null".utf8
        case .bool(let flag): output += (flag ? "true" : "false").utf8
        case .int(let int): writeInteger(int, into: &output)
        case .double(let double): output += number(double).utf8
        case .string(let text): writeString(text, into: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                write(item, sortedKeys: sortedKeys, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            let ordered = sortedKeys ? members.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) } : members
            for (index, member) in ordered.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                write(member.value, sortedKeys: sortedKeys, into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// Shortest round-trip text of a number; JSON has no infinities or NaN, so they become `null`.
    public static func number(_ double: Double) -> String {
        guard double.isFinite else { return "null" }
        return "\(double)"
    }

    /// Appends `value` in decimal, without making a string of it first: the digits one by
    /// one from the most significant (a slice appended whole cost more than the digits).
    public static func writeInteger(_ value: Int, into output: inout [UInt8]) {
        if value < 0 { output.append(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        var divisor: UInt = 1
        while divisor <= magnitude / 10 { divisor *= 10 }
        repeat {
            output.append(UInt8(ascii: "0") + UInt8(magnitude / divisor % 10))
            divisor /= 10
        } while divisor > 0
    }

    /// Appends a quoted, escaped string.
    public static func writeString(_ text: String, into output: inout [UInt8]) {
        output.append(UInt8(ascii: "\""))
        // A native string's bytes are read where they are; anything else is made contiguous first.
        if text.utf8.withContiguousStorageIfAvailable({ writeEscaped($0, into: &output) }) == nil {
            var text = text
            text.withUTF8 { writeEscaped($0, into: &output) }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// `bytes` with the characters JSON escapes escaped; runs that need none are copied
    /// whole, found eight bytes at a time.
    @inline(__always)
    private static func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout [UInt8]) {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        var runStart = 0
        var index = 0
        while index < bytes.count {
            if index + 8 <= bytes.count, !mayNeedEscaping(raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)) {
                index += 8
                continue
            }
            for position in index..<min(index + 8, bytes.count) {
                let byte = bytes[position]
                guard byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") else { continue }
                output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                runStart = position + 1
                writeEscape(byte, into: &output)
            }
            index += 8
        }
        output.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// Whether any of the eight bytes may be a control character, `"` or `\`: no byte is
    /// missed; a byte after one that is may be reported too (a borrow), which only sends
    /// the eight bytes through the byte-by-byte check.
    @inline(__always)
    private static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        return (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs != 0
    }

    /// The escape of one byte that JSON does not take as it is.
    private static func writeEscape(_ byte: UInt8, into output: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): output += [0x5C, 0x22]
        case UInt8(ascii: "\\"): output += [0x5C, 0x5C]
        case 0x0A: output += [0x5C, UInt8(ascii: "n")]
        case 0x0D: output += [0x5C, UInt8(ascii: "r")]
        case 0x09: output += [0x5C, UInt8(ascii: "t")]
        // As JSON.stringify, Python's json and RFC 8785 write them: what signatures over nested JSON agree on.
        case 0x08: output += [0x5C, UInt8(ascii: "b")]
        case 0x0C: output += [0x5C, UInt8(ascii: "f")]
        default:
            let hex = Array("0123456789abcdef".utf8)
            output += [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
        }
    }
}
