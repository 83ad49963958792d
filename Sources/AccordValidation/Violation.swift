/// One way a value breaks its schema, machine-readable for clients and tools.
public struct Violation: Sendable, Hashable, Codable {
    /// The most violations listed for one value or one request. A body of a megabyte can
    /// break its schema some 90,000 times (an unknown member or an element missing a member
    /// every ten bytes), and each violation is kept with its request in the journal: the
    /// checks stop at this many, and the answer says so.
    public static let limit = 100

    /// JSON pointer (RFC 6901) of the offending value; `""` is the whole value.
    public var pointer: String
    /// What the contract expects there, such as `integer` or `one of login, bind`.
    public var expected: String
    /// What was found, such as `a string "abc"` or `absent`.
    public var actual: String
    /// A sentence combining the three, for people.
    public var message: String

    public init(pointer: String, expected: String, actual: String, message: String) {
        self.pointer = pointer
        self.expected = expected
        self.actual = actual
        self.message = message
    }
}

import AccordJSON

extension Violation {
    /// "3 problems in the request"; "100 or more …" once the checks stopped at ``limit``.
    public static func count(of violations: [Violation], in subject: String) -> String {
        violations.count < limit ? "\(violations.count) problems in the \(subject)"
            : "\(limit) or more problems in the \(subject) (the first \(limit) are listed)"
    }

    /// Drops the violations past ``limit``.
    public static func cut(_ violations: inout [Violation]) {
        if violations.count > limit { violations.removeLast(violations.count - limit) }
    }

    /// The violation as the mock answers it: `{pointer, expected, actual, message}`.
    public var json: JSONValue {
        .object([.init("pointer", .string(pointer)), .init("expected", .string(expected)), .init("actual", .string(actual)),
                 .init("message", .string(message))])
    }
}
