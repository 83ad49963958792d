import Foundation

/// One endpoint as the in-process mock routes and answers it.
public nonisolated struct MockRoute: Sendable {
    /// When an answer is given, besides a ``MockTransport/prefer(_:_:)`` naming it.
    public enum Role: Sendable {
        /// Tried in order when its matchers all hold (none: always).
        case matched
        /// The answer when nothing matches.
        case fallback
        /// Only when named.
        case named
    }

    /// One condition of a fixture's `when`, tested as `accord serve` tests it.
    public struct Matcher: Sendable {
        public enum Source: Sendable {
            case params, query, headers, body
        }

        public enum Condition: Sendable {
            /// The value's text equals this.
            case equals(String)
            /// An `NSRegularExpression` pattern, matching anywhere unless anchored.
            case regex(String)
            case present(Bool)
        }

        public var source: Source
        /// A parameter or header name, or a JSON pointer into the body.
        public var key: String
        public var condition: Condition

        public init(_ source: Source, _ key: String, _ condition: Condition) {
            self.source = source
            self.key = key
            self.condition = condition
        }

        /// Whether `value` (nil when absent) passes.
        func holds(for value: String?) -> Bool {
            switch condition {
            case .present(let expected): return (value != nil) == expected
            case .equals(let expected): return value == expected
            case .regex(let pattern):
                guard let value, let expression = try? NSRegularExpression(pattern: pattern) else { return false }
                return expression.firstMatch(in: value, range: NSRange(value.startIndex..., in: value)) != nil
            }
        }
    }

    /// A fixture the endpoint can answer with: a typed value, or a business code.
    public struct Answer: Sendable {
        public var name: String
        public var role: Role
        public var matchers: [Matcher]
        /// 0 with a value, or the code of a refusal (`msg` from the fixture or the table).
        public var code: Int
        public var message: String?
        public var value: (@Sendable () -> any Encodable & Sendable)?
        /// The same value where it is one of the contract's typed fixtures (``fixture(_:role:matchers:value:)``):
        /// what the generated `API.fixtureCatalog` lists.
        public private(set) var fixture: (@Sendable () -> any Codable & Hashable & Sendable)?

        public init(name: String, role: Role, matchers: [Matcher] = [], value: @escaping @Sendable () -> any Encodable & Sendable) {
            self.name = name
            self.role = role
            self.matchers = matchers
            self.code = 0
            self.value = value
        }

        /// A typed fixture of the contract, answered as `value` is, and listed in the
        /// routes' ``Swift/Array/fixtureCatalog``.
        public static func fixture(_ name: String, role: Role, matchers: [Matcher] = [],
                                   value: @escaping @Sendable () -> any Codable & Hashable & Sendable) -> Answer {
            var answer = Answer(name: name, role: role, matchers: matchers, value: value)
            answer.fixture = value
            return answer
        }

        public init(name: String, role: Role, matchers: [Matcher] = [], code: Int, message: String?) {
            self.name = name
            self.role = role
            self.matchers = matchers
            self.code = code
            self.message = message
        }
    }

    public var id: String
    public var method: HTTPMethod
    /// The path template below the base path: `/signals/{signal_id}`.
    public var path: String
    public var requiresAuth: Bool
    /// The type of the JSON the endpoint answers with; nil where it answers bytes.
    ///
    /// A metatype is not `Sendable` in Swift 6 only because a conformance may be isolated
    /// to an actor; the generated models' conformances are `nonisolated`, and the mock
    /// itself never decodes with this type: the routes' `responseTypes` hand it to tests.
    nonisolated(unsafe) public var responseType: (any Codable.Type)?
    public var answers: [Answer]

    public init(id: String, method: HTTPMethod, path: String, requiresAuth: Bool, responseType: (any Codable.Type)? = nil, answers: [Answer]) {
        self.id = id
        self.method = method
        self.path = path
        self.requiresAuth = requiresAuth
        self.responseType = responseType
        self.answers = answers
    }

    /// How many segments of the template are literal.
    var literalSegments: Int {
        path.split(separator: "/").filter { !$0.hasPrefix("{") }.count
    }

    /// Whether `segments` (the request's path below the base path) fit the template.
    func matches(_ segments: [Substring]) -> Bool {
        let template = path.split(separator: "/")
        guard template.count == segments.count else { return false }
        return zip(template, segments).allSatisfy { pattern, segment in pattern.hasPrefix("{") || pattern == segment }
    }
}

nonisolated extension [MockRoute] {
    /// The response type of every route that answers JSON, by the endpoint's id: what the
    /// generated `API.responseTypes` is, read from the routes instead of a statement an
    /// endpoint for the type checker.
    public var responseTypes: [String: any Codable.Type] {
        var types: [String: any Codable.Type] = [:]
        for route in self {
            if let type = route.responseType { types[route.id] = type }
        }
        return types
    }

    /// Every typed fixture the routes answer with, by the endpoint's id and the answer's
    /// name, in the routes' order: what the generated `API.fixtureCatalog` is, read from
    /// the routes instead of a statement a fixture for the type checker.
    public var fixtureCatalog: [(endpoint: String, name: String, value: any Codable & Hashable & Sendable)] {
        var catalog: [(endpoint: String, name: String, value: any Codable & Hashable & Sendable)] = []
        for route in self {
            for answer in route.answers {
                if let fixture = answer.fixture { catalog.append((route.id, answer.name, fixture())) }
            }
        }
        return catalog
    }
}
