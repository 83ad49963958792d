/// One command as its arguments' bytes: `RedisCommand("SET", key, value, "NX")`.
public struct RedisCommand: Sendable, Equatable {
    public var arguments: [[UInt8]]

    public init(_ arguments: any RedisArgument...) {
        self.arguments = arguments.map(\.redisBytes)
    }

    public init(arguments: [[UInt8]]) {
        self.arguments = arguments
    }

    /// The command's name, for messages (`SET`).
    public var name: String { arguments.first.map { String(decoding: $0, as: UTF8.self) } ?? "" }
}

/// A value that travels as one argument of a command.
public protocol RedisArgument: Sendable {
    var redisBytes: [UInt8] { get }
}

extension String: RedisArgument {
    public var redisBytes: [UInt8] { Array(utf8) }
}

extension Substring: RedisArgument {
    public var redisBytes: [UInt8] { Array(utf8) }
}

extension Int: RedisArgument {
    public var redisBytes: [UInt8] { Array(description.utf8) }
}

extension Int64: RedisArgument {
    public var redisBytes: [UInt8] { Array(description.utf8) }
}

extension UInt64: RedisArgument {
    public var redisBytes: [UInt8] { Array(description.utf8) }
}

extension Array: RedisArgument where Element == UInt8 {
    public var redisBytes: [UInt8] { self }
}
