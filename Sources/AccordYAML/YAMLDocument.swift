import AccordDiagnostics

/// The result of parsing one YAML file: its root node (nil when the file holds no
/// document or parsing stopped early) and every problem found on the way.
public struct YAMLDocument: Sendable {
    /// The path used in diagnostics.
    public var file: String
    public var root: Node?
    public var diagnostics: [Diagnostic]

    /// The source location of `mark` in this document's file.
    public func location(_ mark: Mark) -> SourceLocation {
        SourceLocation(file: file, line: mark.line, column: mark.column)
    }
}
