import AccordMock
import AccordRedis
import Foundation

/// One reader per replica of the shared journal's stream (`XREAD BLOCK`), handing every
/// replica's new entries to this replica's live feed, whatever number of streams it has
/// open. It reads only while a stream is open; a stream opened later starts from the
/// entries the journal lists then (its replay), and the reader from the stream's end.
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
        var last: String?
        while true {
            guard let feed else { return }
            guard feed.subscriberCount > 0 else {
                last = nil
                Thread.sleep(forTimeInterval: 0.05)
                continue
            }
            do {
                let from = try last ?? newestID()
                last = try read(after: from, into: feed)
            } catch {
                last = nil
                Thread.sleep(forTimeInterval: 0.2)
            }
        }
    }

    /// The stream's newest id, or `0-0` when it is empty.
    private func newestID() throws(RedisError) -> String {
        let reply = try client.send(RedisCommand("XREVRANGE", client.key("journal"), "+", "-", "COUNT", 1))
        return reply.elements?.first?.elements?.first?.text ?? "0-0"
    }

    /// Publishes the entries after `id` (waiting a while for some) and returns the last id read.
    private func read(after id: String, into feed: JournalFeed) throws(RedisError) -> String {
        let reply = try client.send(RedisCommand("XREAD", "COUNT", 512, "BLOCK", Self.blockMilliseconds, "STREAMS", client.key("journal"), id))
        guard let items = reply.elements?.first?.elements?.last?.elements else { return id }
        var last = id
        for item in items {
            if let itemID = item.elements?.first?.text { last = itemID }
            if let entry = RedisJournal.entry(item) { feed.publish(entry) }
        }
        return last
    }
}
