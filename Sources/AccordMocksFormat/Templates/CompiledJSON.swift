import AccordContract
import AccordJSON

/// A JSON document with `{{ … }}` holes, compiled once into static byte runs and
/// holes so that rendering a response is mostly copying.
///
/// A string that is exactly one expression takes the expression's JSON type
/// (`"{{seq}}"` renders as a number); any other string with holes stays a string.
public struct CompiledJSON: Sendable {
    package enum Piece: Sendable {
        case bytes([UInt8])
        case value(TemplateExpression)
        case string([StringPart])
    }

    package enum StringPart: Sendable {
        case text(String)
        case expression(TemplateExpression)
    }

    package private(set) var pieces: [Piece] = []

    /// Compiles `value`; a template that cannot be read throws with the JSON pointer of its string.
    public init(_ value: JSONValue) throws(TemplateError) {
        var buffer: [UInt8] = []
        try compile(value, pointer: "", into: &buffer)
        flush(&buffer)
    }

    /// A document without templates: `{{` in a string is just text.
    public init(literal value: JSONValue) {
        pieces = [.bytes(JSONWriter.bytes(value))]
    }

    /// A problem in a template, at the JSON pointer of the string that holds it.
    public struct TemplateError: Error, Sendable {
        public var pointer: String
        public var message: String
    }

    /// Whether a hole of the document is `expression` (`{{seq}}`, say), standing alone or inside a string.
    package func uses(_ expression: TemplateExpression) -> Bool {
        pieces.contains { piece in
            switch piece {
            case .bytes: false
            case .value(let hole): hole == expression
            case .string(let parts): parts.contains { if case .expression(let hole) = $0 { hole == expression } else { false } }
            }
        }
    }

    // MARK: Compilation

    private mutating func flush(_ buffer: inout [UInt8]) {
        guard !buffer.isEmpty else { return }
        pieces.append(.bytes(buffer))
        buffer = []
    }

    private mutating func compile(_ value: JSONValue, pointer: String, into buffer: inout [UInt8]) throws(TemplateError) {
        switch value {
        case .string(let text) where text.contains("{{"):
            let parts = try Self.parts(of: text, pointer: pointer)
            flush(&buffer)
            if parts.count == 1, case .expression(let expression) = parts[0] {
                pieces.append(.value(expression))
            } else {
                pieces.append(.string(parts))
            }
        case .array(let items):
            buffer.append(UInt8(ascii: "["))
            for (index, item) in items.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                try compile(item, pointer: "\(pointer)/\(index)", into: &buffer)
            }
            buffer.append(UInt8(ascii: "]"))
        case .object(let members):
            buffer.append(UInt8(ascii: "{"))
            for (index, member) in members.enumerated() {
                if index > 0 { buffer.append(UInt8(ascii: ",")) }
                JSONWriter.writeString(member.key, into: &buffer)
                buffer.append(UInt8(ascii: ":"))
                try compile(member.value, pointer: "\(pointer)/\(member.key.jsonPointerEscaped)", into: &buffer)
            }
            buffer.append(UInt8(ascii: "}"))
        default:
            JSONWriter.write(value, into: &buffer)
        }
    }

    /// Splits `text` into literal text and expressions.
    package static func parts(of text: String, pointer: String) throws(TemplateError) -> [StringPart] {
        var parts: [StringPart] = []
        var rest = Substring(text)
        while let open = rest.range(of: "{{") {
            if open.lowerBound > rest.startIndex { parts.append(.text(String(rest[..<open.lowerBound]))) }
            guard let close = rest[open.upperBound...].range(of: "}}") else {
                throw TemplateError(pointer: pointer, message: "'{{' without a closing '}}'")
            }
            do {
                parts.append(.expression(try TemplateExpression(parsing: String(rest[open.upperBound..<close.lowerBound]))))
            } catch {
                throw TemplateError(pointer: pointer, message: error.message)
            }
            rest = rest[close.upperBound...]
        }
        if !rest.isEmpty { parts.append(.text(String(rest))) }
        return parts
    }
}

/// The text a JSON value contributes inside a larger string.
package enum InterpolatedText {
    package static func text(of value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .null: ""
        default: JSONWriter.string(value)
        }
    }
}
