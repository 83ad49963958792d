#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
internal import CHiredis

/// One connection to Redis through hiredis: commands sent in one write and their
/// replies read in order (pipelining). Not thread-safe, as a hiredis context is not:
/// ``RedisClient`` lends each to one thread at a time.
final class RedisConnection {
    private let context: UnsafeMutablePointer<redisContext>
    /// Set once an I/O error left the stream in an unknown state; the connection is then dropped.
    private(set) var isBroken = false

    /// Connects and selects the URL's database, within `timeout` seconds for each step.
    init(_ url: RedisURL, timeout: Double) throws(RedisError) {
        let time = timeval(tv_sec: Int(timeout), tv_usec: .init((timeout - timeout.rounded(.down)) * 1_000_000))
        guard let context = redisConnectWithTimeout(url.host, Int32(url.port), time) else {
            throw .unreachable("cannot connect to \(url.host):\(url.port): out of memory")
        }
        guard context.pointee.err == 0 else {
            let message = String(cString: accord_redis_error(context))
            redisFree(context)
            throw .unreachable("cannot connect to \(url.host):\(url.port): \(message)")
        }
        self.context = context
        _ = redisSetTimeout(context, time)
        _ = redisEnableKeepAlive(context)
        if url.database != 0 {
            let reply = try send([RedisCommand("SELECT", url.database)])[0]
            if let message = reply.errorMessage { throw .reply("SELECT \(url.database): \(message)") }
        }
    }

    deinit {
        redisFree(context)
    }

    /// Sends `commands` in one write and reads their replies, in order. An error reply is
    /// a reply (``RedisReply/error(_:)``); a broken stream throws and marks the connection broken.
    func send(_ commands: [RedisCommand]) throws(RedisError) -> [RedisReply] {
        for command in commands {
            guard append(command) == REDIS_OK else { throw broken("sending \(command.name)") }
        }
        var replies: [RedisReply] = []
        replies.reserveCapacity(commands.count)
        for command in commands {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else { throw broken("reading the reply to \(command.name)") }
            let reply = raw.assumingMemoryBound(to: redisReply.self)
            replies.append(Self.copy(reply.pointee))
            freeReplyObject(raw)
        }
        return replies
    }

    private func append(_ command: RedisCommand) -> Int32 {
        let count = command.arguments.count
        var lengths = command.arguments.map(\.count)
        // Each argument's bytes stay alive, and in place, for the call (hiredis copies them into its buffer).
        let buffers = command.arguments.map { argument -> UnsafeMutablePointer<CChar> in
            let buffer = UnsafeMutablePointer<CChar>.allocate(capacity: max(1, argument.count))
            argument.withUnsafeBytes { bytes in
                if let base = bytes.baseAddress { UnsafeMutableRawPointer(buffer).copyMemory(from: base, byteCount: bytes.count) }
            }
            return buffer
        }
        defer { for buffer in buffers { buffer.deallocate() } }
        var pointers = buffers.map { UnsafePointer<CChar>?($0) }
        return redisAppendCommandArgv(context, Int32(count), &pointers, &lengths)
    }

    private func broken(_ doing: String) -> RedisError {
        isBroken = true
        let message = context.pointee.err == 0 ? "no reply" : String(cString: accord_redis_error(context))
        return .unreachable("\(doing): \(message)")
    }

    /// The reply as a value; nesting (arrays of arrays) is as deep as Redis sent it.
    private static func copy(_ reply: redisReply) -> RedisReply {
        switch reply.type {
        case REDIS_REPLY_STRING: .string(bytes(reply))
        case REDIS_REPLY_STATUS: .status(String(decoding: bytes(reply), as: UTF8.self))
        case REDIS_REPLY_ERROR: .error(String(decoding: bytes(reply), as: UTF8.self))
        case REDIS_REPLY_INTEGER: .integer(Int64(reply.integer))
        case REDIS_REPLY_ARRAY:
            .array((0..<Int(reply.elements)).map { index in reply.element[index].map { copy($0.pointee) } ?? .null })
        default: .null
        }
    }

    private static func bytes(_ reply: redisReply) -> [UInt8] {
        guard let text = reply.str, reply.len > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: text, count: Int(reply.len)))
    }
}
