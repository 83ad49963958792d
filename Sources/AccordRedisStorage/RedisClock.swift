import AccordMock
import AccordMockState
import AccordRedis

/// The mock clock in Redis: each replica's wall clock plus one shared offset
/// (`PREFIX:clock:offset`), so a clock a tester moves on one replica moves on all.
final class RedisClock: ClockStorage {
    private let client: RedisClient
    /// This replica's wall clock (pinned in tests); its offset is unused.
    private let wall: MockClock
    private let snapshot: RequestSnapshot

    init(client: RedisClient, wall: MockClock, snapshot: RequestSnapshot) {
        self.client = client
        self.wall = wall
        self.snapshot = snapshot
    }

    static let advance = RedisScript("""
    local moved = tonumber(redis.call('GET', KEYS[1]) or '0') + tonumber(ARGV[1])
    if math.abs(moved) > tonumber(ARGV[2]) then return {0, moved} end
    redis.call('SET', KEYS[1], string.format('%d', moved))
    return {1, moved}
    """)

    var wallNow: Int64 { wall.wallNow }

    var now: Int64 {
        get throws(StorageError) {
            let wall = wallNow
            return try shared { () throws(RedisError) in wall + (try snapshot.values.offset) }
        }
    }

    func advance(by seconds: Int64) throws(StorageError) {
        snapshot.begin()
        let reply = try shared { () throws(RedisError) in
            try client.run(Self.advance, keys: [client.key("clock", "offset")], arguments: [seconds, MockClock.maxOffsetSeconds])
        }
        guard reply.elements?.first?.integer == 1 else {
            throw .clockOutOfRange("advancing by \(seconds) s would put the mock clock more than 100 years from the wall clock")
        }
    }

    func set(to time: Int64) throws(StorageError) {
        let (offset, overflow) = time.subtractingReportingOverflow(wallNow)
        guard !overflow, (-MockClock.maxOffsetSeconds...MockClock.maxOffsetSeconds).contains(offset) else {
            throw .clockOutOfRange("\(time) is more than 100 years from the wall clock")
        }
        snapshot.begin()
        try shared { () throws(RedisError) in try client.send(RedisCommand("SET", client.key("clock", "offset"), offset)) }
    }

    func reset() throws(StorageError) {
        snapshot.begin()
        try shared { () throws(RedisError) in try client.send(RedisCommand("DEL", client.key("clock", "offset"))) }
    }
}
