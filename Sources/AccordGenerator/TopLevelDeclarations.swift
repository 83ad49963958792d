/// A generated or runtime Swift file cut at its top level: the header (comments and
/// imports), then declarations, conditional-compilation lines and blank lines.
///
/// It reads the layout every generated file and runtime file keeps: a top-level
/// declaration starts at column 0 (after its `///` lines and attributes), its body is
/// indented, and it ends with a `}` alone at column 0, or on its first line when that
/// line does not end with `{`.
struct TopLevelDeclarations {
    /// What a top-level declaration is.
    enum Kind: Equatable {
        /// A type, protocol or type alias, by its name.
        case type(String)
        /// An extension, by the type it extends as written (`API`, `[MockRoute]`).
        case `extension`(String)
        /// Anything else (a global function or constant), left where it is.
        case other
    }

    enum Item {
        case blank
        /// `#if`, `#else`, `#elseif` or `#endif` at the top level.
        case directive(Substring)
        /// A declaration's lines, its documentation and attributes first.
        case declaration(Kind, lines: [Substring])
    }

    /// The comments and imports before the first declaration.
    private(set) var header: [Substring] = []
    private(set) var items: [Item] = []

    init(_ source: String) {
        let lines = source.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map { Substring($0) }
        var index = Self.headerEnd(lines)
        header = Array(lines[..<index])
        var leading: [Substring] = []
        while index < lines.count {
            let line = lines[index]
            index += 1
            let first = line.utf8.first
            if first == nil && leading.isEmpty {
                items.append(.blank)
            } else if first == UInt8(ascii: "#") {
                items.append(.directive(line))
            } else if first == nil || first == UInt8(ascii: "@") || Self.isComment(line) {
                leading.append(line)
            } else {
                var body = leading + [line]
                leading = []
                if line.utf8.last == UInt8(ascii: "{") {
                    while index < lines.count {
                        body.append(lines[index])
                        index += 1
                        if Self.isClosing(lines[index - 1]) { break }
                    }
                }
                items.append(.declaration(Self.kind(of: line), lines: body))
            }
        }
        items += leading.map { $0.isEmpty ? .blank : .declaration(.other, lines: [$0]) }
    }

    private static func isComment(_ line: Substring) -> Bool {
        line.utf8.starts(with: [UInt8(ascii: "/"), UInt8(ascii: "/")])
    }

    /// `}` alone at column 0: the end of a top-level declaration.
    private static func isClosing(_ line: Substring) -> Bool {
        line.utf8.count == 1 && line.utf8.first == UInt8(ascii: "}")
    }

    /// Where the header ends: the first line that is not a comment, an import, blank, or a
    /// conditional block of imports.
    private static func headerEnd(_ lines: [Substring]) -> Int {
        var index = 0
        while index < lines.count {
            let line = lines[index]
            if line.hasPrefix("#if") {
                guard let end = lines[index...].firstIndex(where: { $0.hasPrefix("#endif") }),
                      lines[(index + 1)..<end].allSatisfy({ $0.hasPrefix("import ") || $0.hasPrefix("#else") || $0.isEmpty })
                else { return index }
                index = end + 1
            } else if line.isEmpty || line.hasPrefix("import ") || (line.hasPrefix("//") && !line.hasPrefix("///")) {
                index += 1
            } else {
                return index
            }
        }
        return index
    }

    static let modifiers: Set<Substring> = ["public", "internal", "fileprivate", "private", "open", "nonisolated", "final", "indirect"]
    static let typeKeywords: Set<Substring> = ["struct", "enum", "class", "actor", "protocol", "typealias"]

    /// The kind of the declaration whose first line is `line`.
    static func kind(of line: Substring) -> Kind {
        let words = line.split(separator: " ").drop { modifiers.contains($0) }
        guard let keyword = words.first, let rest = words.dropFirst().first else { return .other }
        if keyword == "extension" {
            let subject = line[rest.startIndex...].prefix { $0 != ":" && $0 != "{" && $0 != " " }
            return .extension(String(subject))
        }
        guard typeKeywords.contains(keyword) else { return .other }
        return .type(String(rest.prefix { SwiftIdentifiers.continuesIdentifier($0.asciiValue ?? 0x80) }))
    }
}
