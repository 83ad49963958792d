@testable import AccordMock
import AccordMockState
import AccordRedis
import AccordRedisStorage
import AccordSync
import AccordTesting
import Foundation
import Testing

/// The Redis client on its own: URLs read strictly with errors that say what to write,
/// scripts reloaded after a Redis that forgot them, and an unreachable Redis refused at
/// once while the backoff runs, then connected again.
@Suite struct RedisClientTests {
    @Test(arguments: [
        ("redis://127.0.0.1:6379", "redis://127.0.0.1:6379/0?prefix=accord"),
        ("redis://cache.internal:6380/3?prefix=qa-team.1", "redis://cache.internal:6380/3?prefix=qa-team.1"),
    ])
    func aURLIsReadWhole(_ text: String, _ read: String) throws {
        #expect(try RedisURL(parsing: text).description == read)
    }

    @Test(arguments: [
        ("rediss://h:6379", "'rediss://h:6379' is not a Redis URL; write redis://HOST:PORT[/DB][?prefix=NAME] (rediss:// and passwords are not supported)"),
        ("redis://h", "'redis://h' has no port; write redis://h:6379"),
        ("redis://h:0", "the port of 'redis://h:0' is '0'; write a number from 1 to 65535"),
        ("redis://h:99999999999999999999", "the port of 'redis://h:99999999999999999999' is '99999999999999999999'; write a number from 1 to 65535"),
        ("redis://h:6379/x", "the database of 'redis://h:6379/x' is 'x'; write a number from 0 to 65535 after the '/'"),
        ("redis://user:pw@h:6379", "'redis://user:pw@h:6379' carries credentials; Redis passwords are not supported"),
        ("redis://h:6379?db=2", "the query 'db=2' is not read; the one option is ?prefix=NAME"),
        ("redis://h:6379?prefix=a:b", "the prefix 'a:b' must be 1 to 64 letters, digits, '-', '_' or '.'"),
        ("redis://h_1:6379", "the host of 'redis://h_1:6379' is 'h_1'; write a host name or an IPv4 address"),
    ])
    func aWrongURLSaysWhatToWrite(_ text: String, _ message: String) {
        #expect(throws: RedisError.invalidURL(message)) { try RedisURL(parsing: text) }
    }

    @Test func aScriptRedisForgotIsSentAgainWithItsSource() throws {
        let redis = try RedisServer.shared()
        let script = RedisScript("return tonumber(ARGV[1]) + 1")
        let client = RedisClient(url: redis.url("script"), scripts: [script])
        _ = try client.send(RedisCommand("SCRIPT", "FLUSH"))
        let before = client.roundTrips
        #expect(try client.run(script, keys: [], arguments: [41]).integer == 42)
        // EVALSHA met NOSCRIPT, then EVAL with the source: two round trips, then one.
        #expect(client.roundTrips - before == 2)
        #expect(try client.run(script, keys: [], arguments: [1]).integer == 2)
        #expect(client.roundTrips - before == 3)
    }

    @Test func anUnreachableRedisIsRefusedAtOnceUntilTheBackoffEnds() throws {
        let port = LoopbackListener()
        let number = port.port
        port.close()
        let client = RedisClient(url: RedisURL(host: "127.0.0.1", port: Int(number)), timeout: 0.5)
        #expect(throws: RedisError.unreachable("cannot connect to 127.0.0.1:\(number): Connection refused")) { try client.ping() }
        // Within the backoff no connection is tried: the refusal names the last failure.
        #expect(throws: RedisError.unreachable("Redis at 127.0.0.1:\(number) is unreachable (cannot connect to 127.0.0.1:\(number): Connection refused); retrying shortly")) {
            try client.ping()
        }
    }

    /// With Redis away, a replica's journal entries wait, 4,096 at most: past that the
    /// oldest are dropped, counted for `GET /__accord/requests`, and told once.
    @Test func journalEntriesBeyondWhatWaitsForRedisAreCountedAndToldOnce() async throws {
        let told = Locked<[String]>([])
        let storage = RedisStorage(url: RedisURL(host: "127.0.0.1", port: 9, prefix: "away"), nonceTTLSeconds: 60, random: { 0 },
                                   report: { line in told.withLock { $0.append(line) } })
        let entry = JournalEntry(time: 0, wallTime: 0, method: "GET", path: "/api/v1/signals/quota", endpoint: "signal.quota", session: "s",
                                 status: 200, verdict: .ok)
        for _ in 0..<4_100 { try storage.journal.add(entry) }
        let journal = try #require(storage.journal as? any SharedJournalStorage)
        // The writer may hold a batch it failed to write for a moment before it puts it
        // back; then it is that batch's oldest entries that go, and are told.
        for _ in 0..<100 where journal.dropped != 4 || told.withLock({ $0.isEmpty }) { try await Task.sleep(for: .milliseconds(20)) }
        #expect(journal.dropped == 4)
        #expect(told.withLock { $0 } == ["journal: Redis at 127.0.0.1:9 is away and 4096 entries wait for it: older entries are dropped until it is back "
                                         + "(GET /__accord/requests counts them)"])
    }
}
