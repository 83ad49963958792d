import AccordRedis
import Foundation

/// Every command a Redis runs while this watches (`MONITOR`), each with where it came
/// from: a client connection, or a Lua script (`[0 lua]`). What a test asserts an
/// atomic operation by: a client never reads a value and then writes it.
public final class RedisMonitor {
    private let connection: RawConnection
    private let redis: RedisServer

    public struct Command: Sendable {
        /// The command and its arguments as Redis printed them (unquoted).
        public var arguments: [String]
        public var fromScript: Bool

        /// Commands that change the data set.
        static let writes: Set<String> = ["SET", "SETEX", "PSETEX", "GETSET", "GETDEL", "MSET", "DEL", "UNLINK", "EXPIRE", "PEXPIRE", "HSET", "HDEL", "HINCRBY",
                                          "RPUSH", "LPUSH", "LTRIM", "LREM", "ZADD", "ZREM", "ZINCRBY", "SADD", "SREM", "XADD", "XTRIM", "INCR", "INCRBY",
                                          "DECR", "DECRBY", "APPEND", "RENAME", "FLUSHDB", "FLUSHALL"]

        public var isWrite: Bool { Self.writes.contains(arguments.first ?? "") }
        /// A write that is one atomic step by itself: `SET … NX`, `INCR`, `DEL`.
        public var isAtomicOnItsOwn: Bool {
            switch arguments.first {
            case "SET": arguments.contains("NX")
            case "INCR", "DEL", "UNLINK": true
            default: false
            }
        }
    }

    public init(redis: RedisServer) throws {
        self.redis = redis
        connection = try RawConnection(port: redis.port, timeout: 30)
        connection.send("MONITOR\r\n")
        _ = connection.receive { $0.contains("+OK\r\n") }
    }

    /// Stops watching and returns what ran (up to a marker sent now, so nothing is missed).
    public func stop() throws -> [Command] {
        let marker = "accord-monitor-end-\(UUID().uuidString)"
        try RedisClient(url: RedisURL(host: "127.0.0.1", port: Int(redis.port))).send(RedisCommand("ECHO", marker))
        let text = connection.receive { $0.contains(marker) }
        return text.split(separator: "\r\n").compactMap(Self.command)
    }

    /// `+1733… [0 127.0.0.1:40122] "EVALSHA" "ab…" "1"` or `+1733… [0 lua] "HSET" …`.
    static func command(_ line: Substring) -> Command? {
        guard let open = line.firstIndex(of: "["), let close = line[open...].firstIndex(of: "]") else { return nil }
        let source = line[line.index(after: open)..<close]
        var arguments: [String] = []
        var current: String?
        var escaped = false
        for character in line[line.index(after: close)...] {
            if var text = current {
                if escaped {
                    text.append(character)
                    escaped = false
                } else if character == "\\" {
                    escaped = true
                } else if character == "\"" {
                    arguments.append(text)
                    current = nil
                    continue
                } else {
                    text.append(character)
                }
                current = text
            } else if character == "\"" {
                current = ""
            }
        }
        guard let name = arguments.first else { return nil }
        arguments[0] = name.uppercased()
        return Command(arguments: arguments, fromScript: source.hasSuffix(" lua"))
    }
}

extension [RedisMonitor.Command] {
    /// The commands clients sent that name a key or argument under `prefix`, less the
    /// scripts that ran `XADD` (the journal's batches, sent off the request path): what a
    /// storage's requests cost, one command for each round trip it did not pipeline.
    public func requestCommands(under prefix: String) -> [RedisMonitor.Command] {
        indices.compactMap { index in
            let command = self[index]
            guard !command.fromScript, command.arguments.contains(where: { $0.hasPrefix(prefix) }) else { return nil }
            let ran = self[(index + 1)...].prefix { $0.fromScript }
            return ran.contains { $0.arguments.first == "XADD" } ? nil : command
        }
    }
}

extension RedisServer {
    /// `INFO commandstats` as calls by command (lowercased: `evalsha`, `set`).
    public func commandStats() throws -> [String: Int] {
        let reply = try RedisClient(url: RedisURL(host: "127.0.0.1", port: Int(port))).send(RedisCommand("INFO", "commandstats"))
        var calls: [String: Int] = [:]
        for line in (reply.text ?? "").split(whereSeparator: \.isNewline) where line.hasPrefix("cmdstat_") {
            guard let colon = line.firstIndex(of: ":"), let start = line.range(of: "calls=")?.upperBound else { continue }
            let name = String(line[line.index(line.startIndex, offsetBy: 8)..<colon])
            calls[name] = Int(line[start...].prefix { $0.isNumber })
        }
        return calls
    }
}
