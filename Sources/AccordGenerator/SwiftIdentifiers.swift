/// The identifiers in Swift source that are code: not in comments, not in a string
/// literal's text (an interpolation's code is code), not on a `#if` line, not in
/// backticks, not a number's digits. Enough of Swift's lexical grammar for the code the
/// generator writes and the runtime it embeds (no raw strings, no regex literals).
struct SwiftIdentifiers {
    /// One identifier: its bytes' range in the source and what stands right before it.
    struct Occurrence: Equatable {
        var range: Range<Int>
        /// The character before it, spaces skipped: `.` for a member (`x.Tokens`), `@`
        /// for an attribute, `<` or `,` inside angle brackets; 0 at the start.
        var preceding: UInt8
    }

    private let bytes: [UInt8]
    private(set) var occurrences: [Occurrence] = []
    private var index = 0
    private var preceding: UInt8 = 0

    /// The identifiers of `source`, in order.
    static func scan(_ source: [UInt8]) -> [Occurrence] {
        var scanner = SwiftIdentifiers(bytes: source)
        scanner.code(until: nil)
        return scanner.occurrences
    }

    private init(bytes: [UInt8]) {
        self.bytes = bytes
    }

    private func byte(_ offset: Int) -> UInt8 {
        index + offset < bytes.count ? bytes[index + offset] : 0
    }

    /// Code up to the `)` that closes an interpolation (`closer` `)`), or to the end.
    private mutating func code(until closer: UInt8?) {
        var parentheses = 0
        var lineStart = true
        while index < bytes.count {
            let current = bytes[index]
            switch current {
            case UInt8(ascii: "\n"):
                lineStart = true
                index += 1
                continue
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1
                continue
            case UInt8(ascii: "#") where lineStart:
                skipLine()
            case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "/"):
                skipLine()
            case UInt8(ascii: "/") where byte(1) == UInt8(ascii: "*"):
                skipBlockComment()
            case UInt8(ascii: "\""):
                string()
                preceding = current
            case UInt8(ascii: "`"):
                index += 1
                while index < bytes.count, bytes[index] != UInt8(ascii: "`"), bytes[index] != UInt8(ascii: "\n") { index += 1 }
                index += 1
                preceding = current
            case UInt8(ascii: "("):
                parentheses += 1
                index += 1
                preceding = current
            case UInt8(ascii: ")"):
                if closer != nil && parentheses == 0 {
                    index += 1
                    return
                }
                parentheses -= 1
                index += 1
                preceding = current
            default:
                if Self.startsIdentifier(current) {
                    identifier()
                } else if ASCIIByte.isDigit(current) {
                    while index < bytes.count, Self.continuesIdentifier(bytes[index]) || bytes[index] == UInt8(ascii: ".") && ASCIIByte.isDigit(byte(1)) {
                        index += 1
                    }
                    preceding = UInt8(ascii: "0")
                } else {
                    index += 1
                    preceding = current
                }
            }
            lineStart = false
        }
    }

    private mutating func identifier() {
        let start = index
        while index < bytes.count, Self.continuesIdentifier(bytes[index]) { index += 1 }
        occurrences.append(Occurrence(range: start..<index, preceding: preceding))
        preceding = UInt8(ascii: "a")
    }

    /// A string literal, `"…"` or `"""…"""`, from its opening quote; each `\(…)` scanned as code.
    private mutating func string() {
        let multiline = byte(1) == UInt8(ascii: "\"") && byte(2) == UInt8(ascii: "\"")
        index += multiline ? 3 : 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\\") where byte(1) == UInt8(ascii: "("):
                index += 2
                code(until: UInt8(ascii: ")"))
            case UInt8(ascii: "\\"):
                index += 2
            case UInt8(ascii: "\"") where !multiline:
                index += 1
                return
            case UInt8(ascii: "\"") where byte(1) == UInt8(ascii: "\"") && byte(2) == UInt8(ascii: "\""):
                index += 3
                return
            case UInt8(ascii: "\n") where !multiline:
                return
            default:
                index += 1
            }
        }
    }

    private mutating func skipLine() {
        while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
    }

    private mutating func skipBlockComment() {
        var depth = 0
        while index < bytes.count {
            if bytes[index] == UInt8(ascii: "/") && byte(1) == UInt8(ascii: "*") {
                depth += 1
                index += 2
            } else if bytes[index] == UInt8(ascii: "*") && byte(1) == UInt8(ascii: "/") {
                depth -= 1
                index += 2
                if depth == 0 { return }
            } else {
                index += 1
            }
        }
    }

    static func startsIdentifier(_ byte: UInt8) -> Bool {
        ASCIIByte.isLetter(byte) || byte == UInt8(ascii: "_") || byte >= 0x80
    }

    static func continuesIdentifier(_ byte: UInt8) -> Bool {
        startsIdentifier(byte) || ASCIIByte.isDigit(byte)
    }
}
