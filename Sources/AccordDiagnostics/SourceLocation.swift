/// A 1-based position in a source file, as editors and compilers count it.
///
/// `line` and `column` are zero when the location names a whole file or
/// directory rather than a point in it.
public struct SourceLocation: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The path as the user gave it (relative paths stay relative).
    public var file: String
    /// 1-based line, or 0 for "the whole file".
    public var line: Int
    /// 1-based column in characters, or 0 for "the whole line".
    public var column: Int

    public init(file: String, line: Int = 0, column: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
    }

    /// `path:line:col`, `path:line` or `path`, whichever parts are known.
    public var description: String {
        switch (line, column) {
        case (0, _): return file
        case (_, 0): return "\(file):\(line)"
        default: return "\(file):\(line):\(column)"
        }
    }

    public static func < (lhs: SourceLocation, rhs: SourceLocation) -> Bool {
        (lhs.file, lhs.line, lhs.column) < (rhs.file, rhs.line, rhs.column)
    }
}
