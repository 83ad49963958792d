/// A JSON body in the one form the signature and the server agree on, whatever the
/// platform's `JSONEncoder` wrote: members sorted by the UTF-8 bytes of their names, no
/// spaces, `/` and non-ASCII unescaped, integers in decimal and other numbers in Swift's
/// shortest round-trip form (the rule of the signing document).
///
/// `JSONEncoder(.sortedKeys)` is not used for this: Apple platforms and Linux order
/// mixed-case and digit keys differently and write numbers differently.
nonisolated indirect enum CanonicalJSON: Sendable {
    case null
    case bool(Bool)
    case integer(Int)
    case number(Double)
    case string(String)
    case array([CanonicalJSON])
    case object([(key: String, value: CanonicalJSON)])

    /// Why the bytes are not JSON, at which byte.
    struct Malformed: Error, CustomStringConvertible {
        var offset: Int
        var description: String { "malformed JSON at byte \(offset)" }
    }

    /// Reads JSON text (as an encoder wrote it); members are sorted as they are read.
    init(parsing bytes: [UInt8]) throws(Malformed) {
        var reader = Reader(bytes: bytes)
        self = try reader.value(depth: 0)
        reader.skipSpace()
        guard reader.index == bytes.count else { throw Malformed(offset: reader.index) }
    }

    /// The canonical bytes.
    var bytes: [UInt8] {
        var output: [UInt8] = []
        write(into: &output)
        return output
    }

    /// The value as `sorted_params` carries it: a string as is, `nil` for `null`, anything
    /// else as its canonical JSON text.
    var parameterText: String? {
        switch self {
        case .null: nil
        case .string(let text): text
        default: String(decoding: bytes, as: UTF8.self)
        }
    }

    /// The value at an RFC 6901 JSON pointer (`/device_info/os`), or nil.
    func value(at pointer: String) -> CanonicalJSON? {
        guard !pointer.isEmpty else { return self }
        var current: CanonicalJSON? = self
        for token in pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst() {
            let key = token.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            switch current {
            case .object(let members)?: current = members.first { $0.key == key }?.value
            case .array(let items)?: current = Int(key).flatMap { items.indices.contains($0) ? items[$0] : nil }
            default: return nil
            }
        }
        return current
    }

    private func write(into output: inout [UInt8]) {
        switch self {
        case .null: output += Array("null".utf8)
        case .bool(let flag): output += Array((flag ? "true" : "false").utf8)
        case .integer(let value): output += Array(String(value).utf8)
        // A number with no fractional part signs as an integer however it was written (`1080.0`), as the server reads it.
        case .number(let value): output += Array((Int(exactly: value).map(String.init) ?? (value.isFinite ? "\(value)" : "null")).utf8)
        case .string(let text): Self.writeString(text, into: &output)
        case .array(let items):
            output.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                item.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        case .object(let members):
            output.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                Self.writeString(member.key, into: &output)
                output.append(UInt8(ascii: ":"))
                member.value.write(into: &output)
            }
            output.append(UInt8(ascii: "}"))
        }
    }

    /// `pairs` in a stable order of their names' UTF-8 bytes, as the server sorts members
    /// and parameters (equal names keep their order).
    static func sortedByName<Value>(_ pairs: [(key: String, value: Value)]) -> [(key: String, value: Value)] {
        pairs.enumerated().sorted { lhs, rhs in
            lhs.element.key == rhs.element.key ? lhs.offset < rhs.offset
                : lhs.element.key.utf8.lexicographicallyPrecedes(rhs.element.key.utf8)
        }.map(\.element)
    }

    /// Escapes only `"`, `\` and control characters (`\n`, `\r`, `\t`, else `\u00xx`).
    private static func writeString(_ text: String, into output: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        output.append(UInt8(ascii: "\""))
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "\""): output += [0x5C, 0x22]
            case UInt8(ascii: "\\"): output += [0x5C, 0x5C]
            case 0x0A: output += [0x5C, UInt8(ascii: "n")]
            case 0x0D: output += [0x5C, UInt8(ascii: "r")]
            case 0x09: output += [0x5C, UInt8(ascii: "t")]
            // As JSON.stringify and the server write them (the signing rule).
            case 0x08: output += [0x5C, UInt8(ascii: "b")]
            case 0x0C: output += [0x5C, UInt8(ascii: "f")]
            case ..<0x20: output += [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: output.append(byte)
            }
        }
        output.append(UInt8(ascii: "\""))
    }

    /// A recursive-descent reader; nesting deeper than 512 is refused.
    private struct Reader {
        let bytes: [UInt8]
        var index = 0

        mutating func skipSpace() {
            while index < bytes.count, [0x20, 0x0A, 0x0D, 0x09].contains(bytes[index]) { index += 1 }
        }

        mutating func value(depth: Int) throws(Malformed) -> CanonicalJSON {
            skipSpace()
            guard index < bytes.count, depth < 512 else { throw Malformed(offset: index) }
            switch bytes[index] {
            case UInt8(ascii: "{"):
                index += 1
                var members: [(key: String, value: CanonicalJSON)] = []
                skipSpace()
                if peek(UInt8(ascii: "}")) { return .object(members) }
                repeat {
                    skipSpace()
                    let key = try string()
                    skipSpace()
                    try expect(UInt8(ascii: ":"))
                    members.append((key, try value(depth: depth + 1)))
                    skipSpace()
                } while peek(UInt8(ascii: ","))
                try expect(UInt8(ascii: "}"))
                return .object(CanonicalJSON.sortedByName(members))
            case UInt8(ascii: "["):
                index += 1
                var items: [CanonicalJSON] = []
                skipSpace()
                if peek(UInt8(ascii: "]")) { return .array(items) }
                repeat {
                    items.append(try value(depth: depth + 1))
                    skipSpace()
                } while peek(UInt8(ascii: ","))
                try expect(UInt8(ascii: "]"))
                return .array(items)
            case UInt8(ascii: "\""):
                return .string(try string())
            case UInt8(ascii: "t"):
                try word("true")
                return .bool(true)
            case UInt8(ascii: "f"):
                try word("false")
                return .bool(false)
            case UInt8(ascii: "n"):
                try word("null")
                return .null
            default:
                return try number()
            }
        }

        /// A number: an integer that fits `Int` stays one (as the server reads it), any
        /// other number is a `Double`.
        private mutating func number() throws(Malformed) -> CanonicalJSON {
            let start = index
            var integral = true
            while index < bytes.count, let byte = Optional(bytes[index]),
                  (byte >= 0x30 && byte <= 0x39) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "+")
                    || byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") {
                if byte == UInt8(ascii: ".") || byte == UInt8(ascii: "e") || byte == UInt8(ascii: "E") { integral = false }
                index += 1
            }
            let text = String(decoding: bytes[start..<index], as: UTF8.self)
            if integral, let value = Int(text) { return .integer(value) }
            guard let value = Double(text), value.isFinite else { throw Malformed(offset: start) }
            return .number(value)
        }

        private mutating func string() throws(Malformed) -> String {
            try expect(UInt8(ascii: "\""))
            var scalars: [UInt8] = []
            while index < bytes.count {
                let byte = bytes[index]
                index += 1
                switch byte {
                case UInt8(ascii: "\""):
                    return String(decoding: scalars, as: UTF8.self)
                case UInt8(ascii: "\\"):
                    guard index < bytes.count else { throw Malformed(offset: index) }
                    let escape = bytes[index]
                    index += 1
                    switch escape {
                    case UInt8(ascii: "n"): scalars.append(0x0A)
                    case UInt8(ascii: "r"): scalars.append(0x0D)
                    case UInt8(ascii: "t"): scalars.append(0x09)
                    case UInt8(ascii: "b"): scalars.append(0x08)
                    case UInt8(ascii: "f"): scalars.append(0x0C)
                    case UInt8(ascii: "u"):
                        var code = try hex4()
                        if (0xD800..<0xDC00).contains(code), index + 6 <= bytes.count,
                           bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u") {
                            index += 2
                            let low = try hex4()
                            guard (0xDC00..<0xE000).contains(low) else { throw Malformed(offset: index - 6) }
                            code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                        }
                        guard let scalar = Unicode.Scalar(code) else { throw Malformed(offset: index - 4) }
                        scalars += Array(String(Character(scalar)).utf8)
                    default: scalars.append(escape)
                    }
                default:
                    scalars.append(byte)
                }
            }
            throw Malformed(offset: index)
        }

        private mutating func hex4() throws(Malformed) -> UInt32 {
            guard index + 4 <= bytes.count,
                  let code = UInt32(String(decoding: bytes[index..<index + 4], as: UTF8.self), radix: 16) else { throw Malformed(offset: index) }
            index += 4
            return code
        }

        private mutating func word(_ text: String) throws(Malformed) {
            let expected = Array(text.utf8)
            guard index + expected.count <= bytes.count, Array(bytes[index..<index + expected.count]) == expected else {
                throw Malformed(offset: index)
            }
            index += expected.count
        }

        private mutating func peek(_ byte: UInt8) -> Bool {
            guard index < bytes.count, bytes[index] == byte else { return false }
            index += 1
            return true
        }

        private mutating func expect(_ byte: UInt8) throws(Malformed) {
            guard peek(byte) else { throw Malformed(offset: index) }
        }
    }
}
