import Foundation

/// Renders diagnostics the way compilers do: the one-line form, then the source line
/// and a caret under the column.
///
/// ```
/// contracts/signal.yaml:12:15: error: unknown type 'Sgnal'; did you mean 'Signal'?
///     sender: Sgnal
///             ^
/// ```
public struct DiagnosticRenderer {
    private var sources: [String: [Substring]] = [:]
    private let readFile: (String) -> String?

    /// - Parameter readFile: returns the text of a file named by a diagnostic, or nil.
    public init(readFile: @escaping (String) -> String? = { try? String(contentsOfFile: $0, encoding: .utf8) }) {
        self.readFile = readFile
    }

    /// The rendered text of `diagnostic`, ending in a newline.
    public mutating func render(_ diagnostic: Diagnostic) -> String {
        var text = diagnostic.description + "\n"
        let location = diagnostic.location
        guard location.line > 0, let line = sourceLine(location.line, of: location.file) else {
            return text
        }
        let shown = line.replacingOccurrences(of: "\t", with: " ")
        text += shown + "\n"
        if location.column > 0 {
            let padding = String(repeating: " ", count: min(location.column - 1, shown.count))
            text += padding + "^\n"
        }
        return text
    }

    private mutating func sourceLine(_ number: Int, of file: String) -> String? {
        if sources[file] == nil {
            sources[file] = readFile(file).map { $0.split(separator: "\n", omittingEmptySubsequences: false) } ?? []
        }
        guard let lines = sources[file], number <= lines.count else { return nil }
        let line = lines[number - 1]
        // Very long lines (a 50 MB scalar) are not worth echoing in full.
        return line.dropFirst(200).isEmpty ? String(line) : String(line.prefix(200)) + "…"
    }
}
