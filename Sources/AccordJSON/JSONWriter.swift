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
        writeValue(value, sortedKeys: sortedKeys, into: &output)
    }

    /// Appends `value` to `output`.
    public static func write(_ value: JSONValue, sortedKeys: Bool = false, into output: inout ByteOutput) {
        writeValue(value, sortedKeys: sortedKeys, into: &output)
    }

    private static func writeValue<Sink: ByteSink & ~Copyable>(_ value: JSONValue, sortedKeys: Bool, into output: inout Sink) {
        switch value {
        case .null: writeLiteral("null", into: &output)
        case .bool(let flag): writeLiteral(flag ? "true" : "false", into: &output)
        case .int(let int): writeDecimal(int, into: &output)
        case .double(let double): writeText(number(double), into: &output)
        case .string(let text): writeQuoted(text, into: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeValue(item, sortedKeys: sortedKeys, into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            let ordered = sortedKeys ? members.sorted { UTF8Order.precedes($0.key, $1.key) } : members
            for (index, member) in ordered.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                writeQuoted(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                writeValue(member.value, sortedKeys: sortedKeys, into: &output)
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
        writeDecimal(value, into: &output)
    }

    /// Appends `value` in decimal.
    public static func writeInteger(_ value: Int, into output: inout ByteOutput) {
        writeDecimal(value, into: &output)
    }

    @inline(__always)
    private static func writeDecimal<Sink: ByteSink & ~Copyable>(_ value: Int, into output: inout Sink) {
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
        writeQuoted(text, into: &output)
    }

    /// Appends a quoted, escaped string.
    public static func writeString(_ text: String, into output: inout ByteOutput) {
        writeQuoted(text, into: &output)
    }

    @inline(__always)
    private static func writeQuoted<Sink: ByteSink & ~Copyable>(_ text: String, into output: inout Sink) {
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
    private static func writeEscaped<Sink: ByteSink & ~Copyable>(_ bytes: UnsafeBufferPointer<UInt8>, into output: inout Sink) {
        guard let base = bytes.baseAddress else { return }
        let raw = UnsafeRawPointer(base)
        if needsNoEscape(raw, count: bytes.count) { return output.append(bytes) }
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
                output.append(UnsafeBufferPointer(rebasing: bytes[runStart..<position]))
                runStart = position + 1
                writeEscape(byte, into: &output)
            }
            index += 8
        }
        output.append(UnsafeBufferPointer(rebasing: bytes[runStart...]))
    }

    /// Whether none of the `count` bytes at `raw` needs an escape, for certain: the
    /// whole words, then the last eight bytes as one word (overlapping the words before),
    /// so most strings are settled without a byte-by-byte look. A false answer may be
    /// wrong (see ``mayNeedEscaping(_:)``); the caller then looks byte by byte.
    @inline(__always)
    private static func needsNoEscape(_ raw: UnsafeRawPointer, count: Int) -> Bool {
        guard count >= 8 else {
            for offset in 0..<count {
                let byte = raw.load(fromByteOffset: offset, as: UInt8.self)
                if byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") { return false }
            }
            return true
        }
        var offset = 0
        while offset + 8 <= count {
            if mayNeedEscaping(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) { return false }
            offset += 8
        }
        return offset == count || !mayNeedEscaping(raw.loadUnaligned(fromByteOffset: count - 8, as: UInt64.self))
    }

    /// Whether any of the eight bytes may be a control character, `"` or `\`: no byte is
    /// missed; a byte after one that is may be reported too (a borrow), which only sends
    /// the eight bytes through the byte-by-byte check. (``JSONReader`` scans strings with it too.)
    @inline(__always)
    static func mayNeedEscaping(_ word: UInt64) -> Bool {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        let quote = word ^ (ones &* 0x22), backslash = word ^ (ones &* 0x5C)
        let control = (word &- ones &* 0x20) & ~word
        return (control | ((quote &- ones) & ~quote) | ((backslash &- ones) & ~backslash)) & highs != 0
    }

    /// The escape of one byte that JSON does not take as it is.
    private static func writeEscape<Sink: ByteSink & ~Copyable>(_ byte: UInt8, into output: inout Sink) {
        output.append(0x5C)
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): output.append(byte)
        case 0x0A: output.append(UInt8(ascii: "n"))
        case 0x0D: output.append(UInt8(ascii: "r"))
        case 0x09: output.append(UInt8(ascii: "t"))
        // As JSON.stringify, Python's json and RFC 8785 write them: what signatures over nested JSON agree on.
        case 0x08: output.append(UInt8(ascii: "b"))
        case 0x0C: output.append(UInt8(ascii: "f"))
        default:
            writeLiteral("u00", into: &output)
            output.append(Hex.lowercaseDigit(byte >> 4))
            output.append(Hex.lowercaseDigit(byte))
        }
    }

    /// The literal's bytes.
    @inline(__always)
    private static func writeLiteral<Sink: ByteSink & ~Copyable>(_ literal: StaticString, into output: inout Sink) {
        literal.withUTF8Buffer { output.append($0) }
    }

    /// The text's UTF-8 bytes, as they are.
    private static func writeText<Sink: ByteSink & ~Copyable>(_ text: String, into output: inout Sink) {
        var text = text
        text.withUTF8 { output.append($0) }
    }
}
