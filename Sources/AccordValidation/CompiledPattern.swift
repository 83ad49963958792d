import AccordSync
import Foundation

/// A regular expression compiled once and shared across threads
/// (`NSRegularExpression` is immutable once made).
///
/// The texts a pattern meets repeat: every request of an app sends the same
/// `X-App-Version`. So the last ``recentLimit`` short texts and whether they matched
/// are remembered, and a repeated one is answered without running the expression again
/// (which costs thousands of instructions, bridging the text to UTF-16).
public struct CompiledPattern: @unchecked Sendable {
    /// The pattern as written.
    public let pattern: String
    private let expression: NSRegularExpression
    private let recent = RecentMatches()

    /// The most texts remembered per pattern, and the longest one remembered, in bytes.
    static let recentLimit = 8
    static let recentLength = 64

    /// - Parameter wholeString: match only when the pattern covers the whole text.
    public init(_ pattern: String, wholeString: Bool) throws {
        self.pattern = pattern
        self.expression = try NSRegularExpression(pattern: wholeString ? "^(?:\(pattern))$" : pattern)
    }

    /// Whether `text` matches.
    public func matches(_ text: String) -> Bool {
        let remembered = text.utf8.count <= Self.recentLength
        if remembered, let known = recent.result(for: text) { return known }
        let result = expression.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
        if remembered { recent.remember(text, result) }
        return result
    }
}

/// The last few texts a pattern was run on and whether each matched, replaced oldest first.
private final class RecentMatches: Sendable {
    private struct Entries {
        var texts: [String] = []
        var results: [Bool] = []
        var next = 0
    }

    private let entries = Locked(Entries())

    func result(for text: String) -> Bool? {
        entries.withLock { entries in
            entries.texts.firstIndex(of: text).map { entries.results[$0] }
        }
    }

    func remember(_ text: String, _ result: Bool) {
        entries.withLock { entries in
            guard !entries.texts.contains(text) else { return }
            if entries.texts.count < CompiledPattern.recentLimit {
                entries.texts.append(text)
                entries.results.append(result)
            } else {
                entries.texts[entries.next] = text
                entries.results[entries.next] = result
                entries.next = (entries.next + 1) % CompiledPattern.recentLimit
            }
        }
    }
}
