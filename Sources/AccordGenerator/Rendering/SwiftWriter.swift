/// Builds Swift source text with indentation.
///
/// Every block written at the top level (a type, an extension, a function) is
/// `nonisolated`: generated code never takes the default actor isolation of the app
/// target it is compiled in (`.defaultIsolation(MainActor.self)`), so its models decode
/// and its endpoints are built off the main actor.
struct SwiftWriter {
    private(set) var text = ""
    private var depth = 0

    mutating func line(_ content: String = "") {
        if !content.isEmpty {
            for _ in 0..<depth { text += "    " }
            text += content
        }
        text += "\n"
    }

    /// `///` lines for a description (several lines kept as such).
    mutating func documentation(_ summary: String?, remark: String?) {
        let lines = (summary ?? "").split(separator: "\n", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        let described = summary.map { !$0.isEmpty } ?? false
        if described { lines.forEach { line("/// \($0)".trimmingTrailingWhitespace) } }
        if let remark {
            if described { line("///") }
            line("/// - Remark: \(remark)")
        }
    }

    /// Writes `switch subject {`, the cases at the same depth (Swift style), then `}`.
    mutating func switchBlock(_ subject: String, _ body: (inout SwiftWriter) -> Void) {
        line("switch \(subject) {")
        body(&self)
        line("}")
    }

    /// Writes `header {`, the body one level deeper, then `}`.
    mutating func block(_ header: String, _ body: (inout SwiftWriter) -> Void) {
        line((depth == 0 ? "nonisolated " : "") + header + " {")
        depth += 1
        body(&self)
        depth -= 1
        line("}")
    }
}

extension String {
    var trimmingTrailingWhitespace: String {
        var result = self
        while result.last == " " { result.removeLast() }
        return result
    }

    /// A Swift string literal of this text.
    var swiftLiteral: String {
        var escaped = "\""
        for scalar in unicodeScalars {
            switch scalar {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: escaped += "\\u{\(String(scalar.value, radix: 16))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return escaped + "\""
    }
}
