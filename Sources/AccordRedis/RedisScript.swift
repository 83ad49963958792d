import AccordCrypto

/// A Lua script run atomically on Redis, by its SHA-1 (`EVALSHA`) and by its source
/// when Redis does not hold it yet (`EVAL`, which also makes Redis keep it).
public struct RedisScript: Sendable {
    public let source: String
    /// The lowercase hex SHA-1 of the source: the name Redis gives it.
    public let sha: String

    public init(_ source: String) {
        self.source = source
        sha = Digest.sha1Hex(source)
    }

    /// `EVALSHA` of the script with `keys` and `arguments`.
    public func command(keys: [any RedisArgument], arguments: [any RedisArgument]) -> RedisCommand {
        RedisCommand(arguments: [Array("EVALSHA".utf8), Array(sha.utf8), keys.count.redisBytes] + keys.map(\.redisBytes) + arguments.map(\.redisBytes))
    }

    /// The same call as `EVAL` with the source, for when Redis answered `NOSCRIPT`.
    func withSource(_ command: RedisCommand) -> RedisCommand {
        var arguments = command.arguments
        arguments[0] = Array("EVAL".utf8)
        arguments[1] = Array(source.utf8)
        return RedisCommand(arguments: arguments)
    }
}
