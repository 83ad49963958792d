import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordValidation

/// A named canned answer for one endpoint, chosen when its matchers fit the request.
public struct Fixture: Sendable {
    public var endpoint: String
    public var name: String
    public var description: String?
    /// Used when no other fixture of the endpoint matches.
    public var isDefault: Bool
    /// Higher wins among matching fixtures; ties go to the one written first.
    public var priority: Int
    public var matchers: [Matcher]
    /// HTTP status; by default 200, or the business code's status.
    public var status: Int?
    public var headers: [(name: String, value: String)]
    public var delayMilliseconds: Int
    /// The envelope's business code (0 for success).
    public var code: Int
    /// The envelope's `msg`; by default the code table's message.
    public var message: String?
    /// The envelope's `data`, possibly with `{{ … }}` templates.
    public var data: JSONValue?
    /// Server-sent events instead of an envelope, for streaming endpoints.
    public var events: [Event]?
    /// What the fixture does to collections before it answers, in order.
    public var effects: [Effect] = []
    /// `when: {state: …}`: conditions on the session's collections.
    public var conditions: [StateCondition] = []
    public var location: SourceLocation

    /// One server-sent event of a streamed fixture.
    public struct Event: Sendable {
        public var data: JSONValue
        public var delayMilliseconds: Int
    }

    public init(endpoint: String, name: String, location: SourceLocation) {
        self.endpoint = endpoint
        self.name = name
        self.isDefault = false
        self.priority = 0
        self.matchers = []
        self.headers = []
        self.delayMilliseconds = 0
        self.code = 0
        self.location = location
    }
}

/// One condition on a request part.
public struct Matcher: Sendable {
    /// Which part of the request is tested.
    public enum Source: String, Sendable, CaseIterable {
        case params, query, headers, body
    }

    /// The test.
    public enum Condition: Sendable {
        /// The text of the value equals this text (JSON values compare by their JSON text).
        case equals(String)
        /// Matches anywhere in the text unless the pattern is anchored.
        case regex(CompiledPattern)
        case present(Bool)
    }

    public var source: Source {
        didSet { pointer = Self.pointer(source, key) }
    }
    /// A parameter or header name, or a JSON pointer into the body.
    public var key: String {
        didSet { pointer = Self.pointer(source, key) }
    }
    public var condition: Condition
    /// `key` read as a pointer once, for a body matcher (every request the fixture meets reads it).
    package private(set) var pointer: JSONPointer?

    public init(source: Source, key: String, condition: Condition) {
        self.source = source
        self.key = key
        self.condition = condition
        pointer = Self.pointer(source, key)
    }

    private static func pointer(_ source: Source, _ key: String) -> JSONPointer? {
        source == .body ? JSONPointer(key) : nil
    }
}
