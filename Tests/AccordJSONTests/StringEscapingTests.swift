import AccordJSON
import Testing

/// `JSONWriter` finds the bytes a string must escape eight at a time: every ASCII byte at
/// every place of strings of 1 to 24 bytes, beside plain text and beside multi-byte
/// characters, is written as the rule says, byte by byte, into an array and into a
/// ``ByteOutput`` alike.
@Suite struct StringEscapingTests {
    /// The rule, one byte at a time: `"`, `\` and control characters escaped, all else as it is.
    static func expected(_ text: String) -> [UInt8] {
        var output: [UInt8] = [0x22]
        for byte in text.utf8 {
            switch byte {
            case 0x22: output += Array(#"\""#.utf8)
            case 0x5C: output += Array(#"\\"#.utf8)
            case 0x0A: output += Array(#"\n"#.utf8)
            case 0x0D: output += Array(#"\r"#.utf8)
            case 0x09: output += Array(#"\t"#.utf8)
            case 0x08: output += Array(#"\b"#.utf8)
            case 0x0C: output += Array(#"\f"#.utf8)
            case ..<0x20: output += Array(#"\u00"#.utf8) + Array("0123456789abcdef".utf8)[Int(byte >> 4)...].prefix(1)
                + Array("0123456789abcdef".utf8)[Int(byte & 0xF)...].prefix(1)
            default: output.append(byte)
            }
        }
        return output + [0x22]
    }

    /// Calls `check` with `filler` repeated 1 to 24 times and every ASCII byte put in
    /// each place in turn (the word scans' every alignment), until it returns false.
    private static func sweep(_ filler: String, _ check: (_ text: String, _ byte: UInt8) -> Bool) {
        for length in 1...24 {
            let base = Array(repeating: filler, count: length)
            for place in 0..<length {
                for byte in UInt8(0)...UInt8(0x7F) {
                    var parts = base
                    parts[place] = String(UnicodeScalar(byte))
                    guard check(parts.joined(), byte) else { return }
                }
            }
        }
    }

    @Test(arguments: ["a", "é", "中", "😀", "\u{7F}"])
    func everyASCIIByteAtEveryPlaceIsWrittenAsTheRuleSays(filler: String) {
        Self.sweep(filler) { text, _ in
            var written: [UInt8] = []
            JSONWriter.writeString(text, into: &written)
            var output = ByteOutput(capacity: 1)
            JSONWriter.writeString(text, into: &output)
            let expected = Self.expected(text)
            guard written == expected, output.bytes() == expected else {
                Issue.record("\(Array(text.utf8)) written as \(String(decoding: written, as: UTF8.self))")
                return false
            }
            return true
        }
    }

    /// The reader scans a string eight bytes at a time: every ASCII byte at every place,
    /// escaped, reads back as written; sent raw, a control character is refused there.
    @Test(arguments: ["a", "é", "中", "😀", "\u{7F}"])
    func everyASCIIByteAtEveryPlaceReadsBack(filler: String) {
        Self.sweep(filler) { text, byte in
            guard (try? JSONReader.read(Self.expected(text))) == .string(text) else {
                Issue.record("\(Array(text.utf8)) does not read back")
                return false
            }
            let raw = [0x22] + Array(text.utf8) + [0x22]
            guard byte >= 0x20 || (try? JSONReader.read(raw)) == nil else {
                Issue.record("\(raw) with a raw control character was read")
                return false
            }
            return true
        }
    }

    @Test func twoEscapesInOneWordAndRunsBetweenThem() {
        var written: [UInt8] = []
        JSONWriter.writeString("ab\"c\\d\u{1}e\nfghijklmnop\"", into: &written)
        #expect(String(decoding: written, as: UTF8.self) == #""ab\"c\\d\u0001e\nfghijklmnop\"""#)
    }
}
