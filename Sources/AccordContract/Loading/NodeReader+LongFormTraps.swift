import AccordYAML

/// Mappings that were meant as the long form `{type: …, max_length: …}` but carry a key
/// the long form does not know: a misspelling (`max_lenght`), OpenAPI's spelling
/// (`maxLength`, `minimum`) or OpenAPI's `format`. Read as an inline object they would
/// become members named `type` and `max_lenght`, which is never what was meant, so each
/// such key is an error that says what to write.
///
/// A key is taken for a long-form attempt only where its value cannot be a type (a
/// number, a boolean, text that is no type expression) or where it is `format` naming an
/// OpenAPI format: `{type: string, name: string}` stays an object with two members.
extension NodeReader {
    /// OpenAPI's schema keywords and what a contract writes instead.
    static let openAPIKeywords: [String: String] = [
        "minLength": "write 'min_length'", "maxLength": "write 'max_length'",
        "minimum": "write 'min'", "maximum": "write 'max'",
        "exclusiveMinimum": "write 'min' with the next value", "exclusiveMaximum": "write 'max' with the next value",
        "minItems": "write 'min_items'", "maxItems": "write 'max_items'",
        "required": "members are required unless written 'T?' or with 'optional: true'",
        "readOnly": "a contract has no read-only members; answers and bodies are separate types",
        "writeOnly": "a contract has no write-only members; answers and bodies are separate types",
        "example": "examples go under the endpoint's 'examples' or in mocks/",
        "multipleOf": "a contract has no 'multipleOf'; state the range with 'min' and 'max'",
        "uniqueItems": "a contract has no 'uniqueItems'",
    ]

    /// OpenAPI's formats and the contract type that says the same.
    static let openAPIFormats: [String: String] = [
        "date-time": "date-time", "date": "date", "int64": "int64", "int32": "int",
        "double": "double", "float": "double", "uri": "url", "url": "url", "decimal": "decimal",
    ]

    /// OpenAPI formats a contract has no type for: text whose shape `pattern` states.
    static let patternFormats: Set = ["email", "uuid", "byte", "binary", "password", "hostname", "ipv4", "ipv6", "uri-reference"]

    /// Reports every key of `pairs` that shows a long form gone wrong, and tells whether
    /// there was one (then the mapping is no type at all).
    mutating func reportsLongFormTrap(_ pairs: [Node.Pair], _ what: String) -> Bool {
        let strays = pairs.filter { pair in
            guard let key = pair.key.scalar?.value, !Self.longFormKeys.contains(key) else { return false }
            return key == "format" ? Self.isOpenAPIFormat(pair.value) : !Self.canBeType(pair.value)
        }
        guard !strays.isEmpty else { return false }
        for pair in pairs {
            guard let key = pair.key.scalar?.value, !Self.longFormKeys.contains(key) else { continue }
            error(longFormMessage(key, pair.value, what), at: pair.key)
        }
        return true
    }

    private func longFormMessage(_ key: String, _ value: Node, _ what: String) -> String {
        if key == "format", let format = value.scalar?.value {
            if let type = Self.openAPIFormats[format] {
                return "'format' is OpenAPI's; in a contract the type says it: write '\(type)' as the type of \(what)"
            }
            if Self.patternFormats.contains(format) {
                return "'format: \(format)' is OpenAPI's; a contract has no such type: write 'string' with a 'pattern' for \(what)"
            }
        }
        if let instead = Self.openAPIKeywords[key] {
            return "'\(key)' is OpenAPI's spelling in the long form of \(what); \(instead)"
        }
        let known = Self.longFormKeys.filter { $0 != "type" }
        let hint = NameSuggestion.nearest(to: key, in: known).map { "; did you mean '\($0)'?" }
            ?? " (it takes \(known.joined(separator: ", ")))"
        return "unknown key '\(key)' in the long form of \(what)\(hint)"
    }

    /// A value that may be a member's type: a mapping, a sequence or a type expression.
    private static func canBeType(_ node: Node) -> Bool {
        guard case .scalar(let scalar) = node.content else { return true }
        guard case .string(let text) = scalar.resolved else { return false }
        return (try? TypeExpression(parsing: text)) != nil
    }

    private static func isOpenAPIFormat(_ node: Node) -> Bool {
        guard let format = node.scalar?.value else { return false }
        return openAPIFormats[format] != nil || patternFormats.contains(format)
    }
}
