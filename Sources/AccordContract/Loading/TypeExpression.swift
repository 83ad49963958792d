/// The shorthand type syntax: `string`, `Signal`, `[Media]`, `{string: int}`,
/// `ios | android`, and a trailing `?` for an optional field.
///
/// ```
/// expression   := alternatives "?"?
/// alternatives := atom ("|" word)*        // two or more words: a string enum
/// atom         := "[" alternatives "]" | "{" "string" ":" alternatives "}" | word ("<" word ("," word)* ">")?
/// ```
struct TypeExpression: Equatable {
    /// A parsed expression; `offset` is the character offset of each part in the text
    /// (the grammar is ASCII, so bytes and characters agree wherever a part starts).
    indirect enum Term: Equatable {
        case name(String, offset: Int)
        case array(Term, offset: Int)
        case map(Term, offset: Int)
        case enumeration([(String, Int)], offset: Int)
        /// A generic type with its arguments: `Page<Match>`.
        case generic(String, arguments: [String], offset: Int)

        static func == (lhs: Term, rhs: Term) -> Bool {
            switch (lhs, rhs) {
            case let (.name(a, x), .name(b, y)): a == b && x == y
            case let (.array(a, x), .array(b, y)): a == b && x == y
            case let (.map(a, x), .map(b, y)): a == b && x == y
            case let (.enumeration(a, x), .enumeration(b, y)): a.map(\.0) == b.map(\.0) && a.map(\.1) == b.map(\.1) && x == y
            case let (.generic(a, p, x), .generic(b, q, y)): a == b && p == q && x == y
            default: false
            }
        }
    }

    /// A syntax error and the character offset where it was found.
    struct SyntaxError: Error, Equatable {
        var message: String
        var offset: Int
    }

    var term: Term
    var isOptional: Bool

    /// Parses `text`, throwing the first syntax error.
    init(parsing text: String) throws(SyntaxError) {
        var parser = Parser(bytes: Array(text.utf8))
        let term = try parser.alternatives()
        let optional = parser.take("?")
        parser.skipSpaces()
        guard parser.isAtEnd else {
            let rest = parser.peekCharacter.map { "'\($0)'" } ?? "end"
            throw SyntaxError(message: optional ? "'?' must end the type" : "unexpected \(rest) in type '\(text)'", offset: parser.position)
        }
        self.term = term
        self.isOptional = optional
    }

    private struct Parser {
        let bytes: [UInt8]
        var position = 0

        var isAtEnd: Bool { position >= bytes.count }
        var peek: UInt8? { isAtEnd ? nil : bytes[position] }
        /// The character starting at `position`, for messages.
        var peekCharacter: Character? {
            isAtEnd ? nil : String(decoding: bytes[position...], as: UTF8.self).first
        }

        mutating func skipSpaces() {
            while peek == UInt8(ascii: " ") { position += 1 }
        }

        mutating func take(_ character: Unicode.Scalar) -> Bool {
            skipSpaces()
            guard peek == UInt8(ascii: character) else { return false }
            position += 1
            return true
        }

        mutating func expect(_ character: Unicode.Scalar, after what: String) throws(SyntaxError) {
            guard take(character) else {
                throw SyntaxError(message: "expected '\(character)' \(what)", offset: position)
            }
        }

        mutating func alternatives() throws(SyntaxError) -> Term {
            let start = position
            let first = try atom()
            guard take("|") else { return first }
            guard case .name(let firstWord, let firstOffset) = first else {
                throw SyntaxError(message: "only plain words can be alternatives of an enum", offset: start)
            }
            var words = [(firstWord, firstOffset)]
            repeat {
                skipSpaces()
                let offset = position
                guard let next = word() else {
                    throw SyntaxError(message: "expected an enum value after '|'", offset: offset)
                }
                words.append((next, offset))
            } while take("|")
            return .enumeration(words, offset: firstOffset)
        }

        mutating func atom() throws(SyntaxError) -> Term {
            skipSpaces()
            let offset = position
            if take("[") {
                let item = try alternatives()
                if take("?") {
                    throw SyntaxError(message: "array items cannot be optional; put '?' after ']' to make the field optional", offset: position - 1)
                }
                try expect("]", after: "to close the array type")
                return .array(item, offset: offset)
            }
            if take("{") {
                skipSpaces()
                let keyOffset = position
                guard word() == "string" else {
                    throw SyntaxError(message: "map keys are always 'string': write {string: T}", offset: keyOffset)
                }
                try expect(":", after: "after 'string' in a map type")
                let value = try alternatives()
                try expect("}", after: "to close the map type")
                return .map(value, offset: offset)
            }
            guard let name = word() else {
                let found = peekCharacter.map { "'\($0)'" } ?? "end of text"
                throw SyntaxError(message: "expected a type, found \(found)", offset: offset)
            }
            guard take("<") else { return .name(name, offset: offset) }
            var arguments: [String] = []
            repeat {
                skipSpaces()
                let argumentOffset = position
                guard let argument = word() else {
                    throw SyntaxError(message: "expected a named type as an argument of '\(name)'", offset: argumentOffset)
                }
                arguments.append(argument)
            } while take(",")
            try expect(">", after: "to close the arguments of '\(name)'")
            return .generic(name, arguments: arguments, offset: offset)
        }

        /// `[A-Za-z0-9_.-]+`
        mutating func word() -> String? {
            let start = position
            while let byte = peek, Self.isWordByte(byte) { position += 1 }
            return position > start ? String(decoding: bytes[start..<position], as: UTF8.self) : nil
        }

        private static func isWordByte(_ byte: UInt8) -> Bool {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "_"), UInt8(ascii: "-"), UInt8(ascii: "."): true
            default: false
            }
        }
    }
}
