/// Why a Redis operation failed.
public enum RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL could not be read; the message says what to write.
    case invalidURL(String)
    /// No connection, or it broke (refused, timed out, closed): the operation's outcome is unknown.
    case unreachable(String)
    /// Redis answered with an error reply (`WRONGTYPE …`, `NOSCRIPT …`, a script's `error_reply`).
    case reply(String)
    /// Redis answered, but not with the shape the command has (a bug or a foreign key).
    case unexpected(String)

    public var description: String {
        switch self {
        case .invalidURL(let message), .unreachable(let message), .reply(let message), .unexpected(let message): message
        }
    }
}
