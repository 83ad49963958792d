/// One reply of Redis (RESP2), copied out of hiredis's reply object.
public enum RedisReply: Sendable, Equatable {
    case string([UInt8])
    case status(String)
    case integer(Int64)
    case null
    case array([RedisReply])
    case error(String)

    /// The reply as an integer (an integer reply, or a bulk string of digits).
    public var integer: Int64? {
        switch self {
        case .integer(let value): value
        case .string(let bytes): Int64(String(decoding: bytes, as: UTF8.self))
        default: nil
        }
    }

    /// The bytes of a bulk string or status.
    public var bytes: [UInt8]? {
        switch self {
        case .string(let bytes): bytes
        case .status(let text): Array(text.utf8)
        default: nil
        }
    }

    /// A bulk string or status as text.
    public var text: String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    /// The elements of an array reply.
    public var elements: [RedisReply]? {
        if case .array(let elements) = self { elements } else { nil }
    }

    /// The error message, if it is an error reply.
    public var errorMessage: String? {
        if case .error(let message) = self { message } else { nil }
    }
}
