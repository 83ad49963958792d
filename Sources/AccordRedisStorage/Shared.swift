import AccordMock
import AccordMockState
import AccordRedis

/// `body`'s Redis failure as the storage failure every part throws: a 503 on the mock's
/// path, never a made-up answer. A write's reply may go unread, as the body's would.
@discardableResult
func shared<Value>(_ body: () throws(RedisError) -> Value) throws(StorageError) -> Value {
    do {
        return try body()
    } catch {
        throw .unavailable("Redis: \(error.description)")
    }
}

extension RedisReply {
    /// The integer of a reply that must be one.
    func requireInteger(_ doing: String) throws(RedisError) -> Int64 {
        guard let value = integer else { throw .unexpected("\(doing): expected an integer, got \(self)") }
        return value
    }
}

extension RedisClient {
    /// Deletes every key under `PREFIX:pattern` (a `SCAN` glob), in batches: resets and clears.
    func deleteKeys(matching pattern: String) throws(RedisError) {
        var cursor = "0"
        repeat {
            let reply = try send(RedisCommand("SCAN", cursor, "MATCH", key(pattern), "COUNT", 1_000))
            guard let parts = reply.elements, parts.count == 2, let next = parts[0].text, let keys = parts[1].elements else {
                throw .unexpected("SCAN answered \(reply)")
            }
            let names = keys.compactMap(\.bytes)
            if !names.isEmpty { try send(RedisCommand(arguments: [Array("UNLINK".utf8)] + names)) }
            cursor = next
        } while cursor != "0"
    }

    /// How many keys lie under `PREFIX:pattern` (a `SCAN` glob): counts for the console and tests.
    func countKeys(matching pattern: String) throws(RedisError) -> Int {
        var cursor = "0"
        var count = 0
        repeat {
            let reply = try send(RedisCommand("SCAN", cursor, "MATCH", key(pattern), "COUNT", 1_000))
            guard let parts = reply.elements, parts.count == 2, let next = parts[0].text, let keys = parts[1].elements else {
                throw .unexpected("SCAN answered \(reply)")
            }
            count += keys.count
            cursor = next
        } while cursor != "0"
        return count
    }
}

/// Lua that reads the mock clock's offset: `local now = ARGV[1] + offset(prefix)`.
enum LuaClock {
    static let offset = """
    local function mock_now(prefix, wall)
      return tonumber(wall) + tonumber(redis.call('GET', prefix .. ':clock:offset') or '0')
    end
    """
}
