/// One way a value breaks its schema, machine-readable for clients and tools.
public struct Violation: Sendable, Hashable, Codable {
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
    /// The violation as the mock answers it: `{pointer, expected, actual, message}`.
    public var json: JSONValue {
        .object([.init("pointer", .string(pointer)), .init("expected", .string(expected)), .init("actual", .string(actual)),
                 .init("message", .string(message))])
    }
}
