import Foundation

/// A regular expression compiled once and shared across threads
/// (`NSRegularExpression` is immutable once made).
public struct CompiledPattern: @unchecked Sendable {
    /// The pattern as written.
    public let pattern: String
    private let expression: NSRegularExpression

    /// - Parameter wholeString: match only when the pattern covers the whole text.
    public init(_ pattern: String, wholeString: Bool) throws {
        self.pattern = pattern
        self.expression = try NSRegularExpression(pattern: wholeString ? "^(?:\(pattern))$" : pattern)
    }

    /// Whether `text` matches.
    public func matches(_ text: String) -> Bool {
        expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
