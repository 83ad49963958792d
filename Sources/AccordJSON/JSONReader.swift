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

    struct Problem: Error {
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

    struct Cursor: ~Copyable {
        let bytes: [UInt8]
        var position = 0
        /// The members of the objects being read, and the items of the arrays.
        var members = PendingValues<JSONValue.Member>()
        var items = PendingValues<JSONValue>()

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
            let start = position
            position += 1
            skipWhitespace()
            if current == UInt8(ascii: "}") {
                position += 1
                return .object([])
            }
            // This object's members so far are the pending ones from `base` on.
            let base = members.count
            // Past a few members, names are found by hashing rather than scanning.
            var index: [String: Int] = [:]
            while true {
                skipWhitespace()
                guard current == UInt8(ascii: "\"") else { throw Problem(message: "expected a member name in quotes, found \(describeCurrent())", offset: position) }
                let keyOffset = position
                let key = try string()
                let read = members.count - base
                let earlier = read < 16 ? members.values(from: base).firstIndex { $0.key == key } : index[key]
                if let earlier {
                    throw Problem(message: "duplicate member '\(key)'", offset: keyOffset, firstOffset: nameOffset(ofMember: earlier, inObjectAt: start))
                }
                if read == 15 {
                    for (number, member) in members.values(from: base).enumerated() { index[member.key] = number }
                }
                if read >= 15 { index[key] = read }
                skipWhitespace()
                guard current == UInt8(ascii: ":") else { throw Problem(message: "expected ':' after member name, found \(describeCurrent())", offset: position) }
                position += 1
                skipWhitespace()
                let value = try value(depth: depth + 1)
                members.push(JSONValue.Member(key, value))
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "}"): position += 1; return .object(members.take(from: base))
                default: throw Problem(message: "expected ',' or '}' in object, found \(describeCurrent())", offset: position)
                }
            }
        }

        /// Where the name of member `number` of the object at `start` begins: found by
        /// reading the object again up to it, which only a duplicate's report needs,
        /// instead of keeping every name's offset for every object read.
        func nameOffset(ofMember number: Int, inObjectAt start: Int) -> Int {
            var again = Cursor(bytes: bytes, position: start + 1)
            for _ in 0..<number {
                // These members were read once already: reading them again cannot fail.
                again.skipWhitespace()
                _ = try? again.string()
                again.skipWhitespace()
                again.position += 1
                again.skipWhitespace()
                _ = try? again.value(depth: 0)
                again.skipWhitespace()
                again.position += 1
            }
            again.skipWhitespace()
            return again.position
        }

        mutating func array(depth: Int) throws(Problem) -> JSONValue {
            position += 1
            skipWhitespace()
            if current == UInt8(ascii: "]") {
                position += 1
                return .array([])
            }
            let base = items.count
            while true {
                skipWhitespace()
                let item = try value(depth: depth + 1)
                items.push(item)
                skipWhitespace()
                switch current {
                case UInt8(ascii: ","): position += 1
                case UInt8(ascii: "]"): position += 1; return .array(items.take(from: base))
                default: throw Problem(message: "expected ',' or ']' in array, found \(describeCurrent())", offset: position)
                }
            }
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
