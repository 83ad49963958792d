import AccordMock
import AccordMockState
import AccordRedis
import Foundation

/// One reader per replica of the shared journal's stream (`XREAD BLOCK`), handing every
/// replica's new entries to this replica's live feed, whatever number of streams it has
/// open. It reads only while a stream is open, from the oldest entry number an open
/// stream was offered (a stream opens at the newest number the journal had then), so no
/// stream misses an entry filed after it opened, and none gets one twice.
final class JournalFollower: Sendable {
    private let client: RedisClient
    /// Weak: the reader ends with the state whose feed it fills.
    private weak let feed: JournalFeed?

    /// How long one `XREAD` waits for entries, in milliseconds (within the client's reply timeout).
    static let blockMilliseconds = 500

    init(client: RedisClient, feed: JournalFeed) {
        self.client = client
        self.feed = feed
    }

    func start() {
        Thread.detachNewThread { [self] in run() }
    }

    private func run() {
        while true {
            guard let feed else { return }
            guard let seen = feed.oldestSeen else {
                Thread.sleep(forTimeInterval: 0.05)
                continue
            }
            do {
                try read(after: seen, into: feed)
            } catch {
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    /// Publishes the entries numbered after `number` (an id is its entry's number), waiting a while for some.
    private func read(after number: Int, into feed: JournalFeed) throws(RedisError) {
        let reply = try client.send(RedisCommand("XREAD", "COUNT", 512, "BLOCK", Self.blockMilliseconds, "STREAMS", client.key("journal"),
                                                 "\(number)-0"))
        for item in reply.elements?.first?.elements?.last?.elements ?? [] {
            if let entry = RedisJournal.entry(item) { feed.publishInOrder(entry) }
        }
    }
}
