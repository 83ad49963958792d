import AccordDiagnostics
import AccordJSON

/// One fixture's answer rendered to plain JSON, with when the server answers it: what
/// `accord generate` turns into a typed value and a `MockTransport` route.
public struct FixtureSample: Sendable {
    /// When the server answers a sample, besides a `Prefer` naming it.
    public enum Role: String, Sendable {
        /// A fixture tried in order when its matchers all hold (none: always).
        case matched
        /// The answer when no fixture matches: the default fixture, else the first success example.
        case fallback
        /// Only when a `Prefer` names it (the other examples).
        case named
    }

    public var name: String
    public var data: JSONValue
    public var location: SourceLocation
    public var role: Role
    /// The fixture's `when`.
    public var matchers: [Matcher]
    /// A business code other than 0 (`data` is then `null`): the answer has no typed value.
    public var code: Int
    /// The fixture's `msg`, if it gives one.
    public var message: String?

    public init(name: String, data: JSONValue, location: SourceLocation, role: Role = .named, matchers: [Matcher] = [],
                code: Int = 0, message: String? = nil) {
        self.name = name
        self.data = data
        self.location = location
        self.role = role
        self.matchers = matchers
        self.code = code
        self.message = message
    }
}
