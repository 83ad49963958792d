import AccordDiagnostics

/// A strict RFC 8259 JSON reader producing ``JSONValue``s.
///
/// Unlike Foundation's readers it keeps object members in order, tells integers from
/// other numbers, and reports a malformed document with its byte offset, line and
/// column, which the mock server returns to the client.
public enum JSONReader {
    /// The deepest nesting accepted.
    public static let maxDepth = 512

    /// Reads one JSON value filling all of `bytes` (surrounding whitespace allowed).
    public static func read(_ bytes: some Collection<UInt8>) throws(Failure) -> JSONValue {
        let buffer = Array(bytes)
        var cursor = Cursor(bytes: buffer)
        do throws(Problem) {
            cursor.skipWhitespace()
            let value = try cursor.value(depth: 0)
            cursor.skipWhitespace()
            guard cursor.isAtEnd else { throw Problem(message: "unexpected \(cursor.describeCurrent()) after the JSON value", offset: cursor.position) }
            return value
        } catch {
            throw failure(error, in: buffer)
        }
    }

    private struct Problem: Error {
        var message: String
        var offset: Int
        /// For a duplicate member, the offset of the first one.
        var firstOffset: Int?
    }

    private static func failure(_ problem: Problem, in bytes: [UInt8]) -> Failure {
        let at = position(of: problem.offset, in: bytes)
        guard let firstOffset = problem.firstOffset else {
            return Failure(message: problem.message, offset: problem.offset, line: at.line, column: at.column)
        }
        let first = position(of: firstOffset, in: bytes)
        return Failure(message: "\(problem.message) (first at line \(first.line), column \(first.column))", offset: problem.offset,
                       line: at.line, column: at.column, firstOccurrence: first)
    }

    private static func position(of offset: Int, in bytes: [UInt8]) -> Failure.Position {
        let (line, column) = TextPosition.lineAndColumn(ofByte: offset, in: bytes)
        return Failure.Position(line: line, column: column)
    }

    private struct Cursor {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position >= bytes.count }
        var current: UInt8? { isAtEnd ? nil : bytes[position] }

        func describeCurrent() -> String {
            guard let byte = current else { return "end of input" }
            return byte >= 0x20 && byte < 0x7F ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16, uppercase: true))"
        }

        mutating func skipWhitespace() {
            while let byte = current, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { position += 1 }
        }

        mutating func value(depth: Int) throws(Problem) -> JSONValue {
            guard depth < JSONReader.maxDepth else { throw Problem(message: "nesting deeper than \(JSONReader.maxDepth) levels", offset: position) }
            guard let byte = current else { throw Problem(message: "expected a JSON value, found end of input", offset: position) }
            switch byte {
            case UInt8(ascii: "{"): return try object(depth: depth)
            case UInt8(ascii: "["): return try array(depth: depth)
            case UInt8(ascii: "\""): return .string(try string())
            case UInt8(ascii: "t"): try literal("true"); return .bool(true)
            case UInt8(ascii: "f"): try literal("false"); return .bool(false)
            case UInt8(ascii: "n"): try literal("null"); return .null
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return try number()
            default: throw Problem(message: "expected a JSON value, found \(describeCurrent())", offset: position)
            }
        }

        mutating func literal(_ word: StaticString) throws(Problem) {
            let start = position
            let expected = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
            guard bytes.count - position >= expected.count, bytes[position..<position + expected.count].elementsEqual(expected) else {
                throw Problem(message: "invalid literal; expected '\(word)'", offset: start)
            }
            position += expected.count
        }

        mutating func object(depth: Int) throws(Problem) -> JSONValue {
            position += 1
            var members: [JSONValue.Member] = []
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object(members)
            }
            // Room for a typical object at once, rather than growing 1, 2, 4, 8.
            members.reserveCapacity(8)
            // Where each member's name starts, to report a duplicate with both positions.
            var keyOffsets: [Int] = []
            keyOffsets.reserveCapacity(8)
            // Past a few members, names are found by hashing rather than scanning.
            var index: [String: Int] = [:]
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw Problem(message: "expected a member name in quotes, found \(describeCurrent())", offset: position) }
                let keyOffset = position
                let key = try string()
                let earlier = members.count < 16 ? members.firstIndex { $0.key == key } : index[key]
                if let earlier {
                    throw Problem(message: "duplicate member '\(key)'", offset: keyOffset, firstOffset: keyOffsets[earlier])
                }
                if members.count == 15 {
                    for (number, member) in members.enumerated() { index[member.key] = number }
                }
                if members.count >= 15 { index[key] = members.count }
                keyOffsets.append(keyOffset)
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw Problem(message: "expected ':' after member name, found \(describeCurrent())", offset: position) }
                position += 1
                skipWhitespace()
                members.append(JSONValue.Member(key, try value(depth: depth + 1)))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"): position += 1; return .object(members)
                default: throw Problem(message: "expected ',' or '}' in object, found \(describeCurrent())", offset: position)
                }
            }
        }

        mutating func array(depth: Int) throws(Problem) -> JSONValue {
            position += 1
            var items: [JSONValue] = []
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array(items)
            }
            items.reserveCapacity(4)
            while true {
                skipWhitespace()
                items.append(try value(depth: depth + 1))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"): position += 1; return .array(items)
                default: throw Problem(message: "expected ',' or ']' in array, found \(describeCurrent())", offset: position)
                }
            }
        }

        mutating func string() throws(Problem) -> String {
            let start = position
            position += 1
            // Fast path: no escapes; plain ASCII needs no UTF-8 validation at all.
            var end = position
            var ascii = true
            while end < bytes.count {
                let byte = bytes[end]
                if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte < 0x20 { break }
                if byte >= 0x80 { ascii = false }
                end += 1
            }
            if end < bytes.count, bytes[end] == UInt8(ascii: "\"") {
                let text = ascii ? Self.asciiString(bytes[position..<end]) : try validated(bytes[position..<end], at: position)
                position = end + 1
                return text
            }
            var scalars: [UInt8] = Array(bytes[position..<end])
            position = end
            while true {
                guard let byte = current else { throw Problem(message: "unterminated string", offset: start) }
                switch byte {
                case UInt8(ascii: "\""):
                    position += 1
                    return try validated(scalars[...], at: start + 1)
                case UInt8(ascii: "\\"):
                    position += 1
                    try escape(into: &scalars)
                case 0..<0x20:
                    throw Problem(message: "control character 0x\(String(byte, radix: 16, uppercase: true)) in string; escape it", offset: position)
                default:
                    scalars.append(byte)
                    position += 1
                }
            }
        }

        /// Bytes known to be ASCII as a String, copied without validating them again.
        static func asciiString(_ bytes: ArraySlice<UInt8>) -> String {
            bytes.withUnsafeBufferPointer { source in
                String(unsafeUninitializedCapacity: source.count) { target in
                    _ = target.initialize(fromContentsOf: source)
                    return source.count
                }
            }
        }

        func validated(_ utf8: ArraySlice<UInt8>, at offset: Int) throws(Problem) -> String {
            // String(decoding:) takes the fast path and repairs what is not UTF-8; the
            // text is valid exactly when nothing was repaired. (String(validating:)
            // would do the same through an unspecialized generic, at many times the cost.)
            var text = utf8.withUnsafeBufferPointer { String(decoding: $0, as: UTF8.self) }
            // The new string is native and contiguous: its buffer and the input's are compared
            // directly, not through the generic views' iterators.
            let same = text.utf8.count == utf8.count && text.withUTF8 { decoded in
                utf8.withUnsafeBufferPointer { original in decoded.elementsEqual(original) }
            }
            guard same else { throw Problem(message: "invalid UTF-8 in string", offset: offset) }
            return text
        }

        mutating func escape(into scalars: inout [UInt8]) throws(Problem) {
            guard let byte = current else { throw Problem(message: "unterminated escape", offset: position) }
            position += 1
            let simple: [UInt8: UInt8] = [
                UInt8(ascii: "\""): 0x22, UInt8(ascii: "\\"): 0x5C, UInt8(ascii: "/"): 0x2F, UInt8(ascii: "b"): 0x08,
                UInt8(ascii: "f"): 0x0C, UInt8(ascii: "n"): 0x0A, UInt8(ascii: "r"): 0x0D, UInt8(ascii: "t"): 0x09,
            ]
            if let replacement = simple[byte] {
                scalars.append(replacement)
                return
            }
            guard byte == UInt8(ascii: "u") else { throw Problem(message: "invalid escape '\\\(Character(Unicode.Scalar(byte)))'", offset: position - 2) }
            var code = try hex4()
            if (0xD800..<0xDC00).contains(code) {
                guard current == UInt8(ascii: "\\"), position + 1 < bytes.count, bytes[position + 1] == UInt8(ascii: "u") else {
                    throw Problem(message: "unpaired high surrogate \\u\(String(code, radix: 16, uppercase: true))", offset: position - 6)
                }
                position += 2
                let low = try hex4()
                guard (0xDC00..<0xE000).contains(low) else { throw Problem(message: "invalid low surrogate", offset: position - 6) }
                code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
            } else if (0xDC00..<0xE000).contains(code) {
                throw Problem(message: "unpaired low surrogate", offset: position - 6)
            }
            guard let scalar = Unicode.Scalar(code) else { throw Problem(message: "invalid code point", offset: position - 6) }
            scalars.append(contentsOf: Array(String(Character(scalar)).utf8))
        }

        mutating func hex4() throws(Problem) -> UInt32 {
            guard bytes.count - position >= 4 else { throw Problem(message: "expected 4 hex digits after \\u", offset: position) }
            var value: UInt32 = 0
            for byte in bytes[position..<position + 4] {
                guard let digit = Hex.value(byte) else {
                    throw Problem(message: "expected 4 hex digits after \\u", offset: position)
                }
                value = value << 4 | UInt32(digit)
            }
            position += 4
            return value
        }

        mutating func number() throws(Problem) -> JSONValue {
            let start = position
            if current == UInt8(ascii: "-") { position += 1 }
            guard let first = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(first) else {
                throw Problem(message: "expected a digit", offset: position)
            }
            if first == UInt8(ascii: "0") {
                position += 1
                if let next = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(next) {
                    throw Problem(message: "leading zeros are not allowed", offset: start)
                }
            } else {
                skipDigits()
            }
            var integral = true
            if current == UInt8(ascii: ".") {
                integral = false
                position += 1
                guard skipDigits() > 0 else { throw Problem(message: "expected a digit after '.'", offset: position) }
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                integral = false
                position += 1
                if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
                guard skipDigits() > 0 else { throw Problem(message: "expected a digit in the exponent", offset: position) }
            }
            let text = String(decoding: bytes[start..<position], as: UTF8.self)
            if integral, let int = Int(text) { return .int(int) }
            guard let double = Double(text), double.isFinite else { throw Problem(message: "number out of range", offset: start) }
            return .double(double)
        }

        @discardableResult
        mutating func skipDigits() -> Int {
            let start = position
            while let byte = current, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) { position += 1 }
            return position - start
        }
    }
}
