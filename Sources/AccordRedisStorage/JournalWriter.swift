import AccordRedis
import AccordSync
import Foundation

/// Writes journal entries to the stream off the request path: a request queues its
/// entry and goes on; one thread writes whatever has queued in one script call (one
/// round trip for a whole batch under load). While Redis is away the entries wait, up
/// to ``queueLimit``; past it the oldest are dropped, counted (``dropped``) and told
/// through `report` once per outage.
final class JournalWriter: Sendable {
    private let client: RedisClient
    private let capacity: Int
    private let pending = Locked(Pending())
    /// The entries written so far, held while a batch is taken and written, so batches
    /// reach the stream in order.
    private let written = Locked(0)
    private let wake = DispatchSemaphore(value: 0)
    private let report: @Sendable (String) -> Void

    private struct Pending {
        var entries: [[UInt8]] = []
        var threadRunning = false
        /// Entries dropped since the writer started.
        var dropped = 0
        /// Whether entries were dropped since the last batch reached Redis (the outage was told).
        var dropping = false
    }

    /// The most entries waiting for Redis.
    static let queueLimit = 4_096
    /// The most entries one script call writes.
    static let batchLimit = 256

    /// Numbers and adds each entry of `ARGV[2…]`, trimming the stream to about `ARGV[1]`.
    /// An entry's id in the stream is its number (`N-0`), so a reader can go on from any
    /// entry it names.
    static let add = RedisScript("""
    for index = 2, #ARGV do
        local number = redis.call('INCR', KEYS[1] .. ':seq')
        redis.call('XADD', KEYS[1], 'MAXLEN', '~', ARGV[1], number .. '-0', 's', number, 'e', ARGV[index])
    end
    return #ARGV - 1
    """)

    /// - Parameter report: told when entries start being dropped, once per outage.
    init(client: RedisClient, capacity: Int, report: @escaping @Sendable (String) -> Void) {
        self.client = client
        self.capacity = capacity
        self.report = report
    }

    /// The entries dropped so far, Redis having been away while ``queueLimit`` waited.
    var dropped: Int { pending.withLock { $0.dropped } }

    func queue(_ entry: [UInt8]) {
        let (startThread, firstDrop) = pending.withLock { pending -> (Bool, Bool) in
            var firstDrop = false
            if pending.entries.count >= Self.queueLimit {
                pending.entries.removeFirst()
                pending.dropped += 1
                firstDrop = !pending.dropping
                pending.dropping = true
            }
            pending.entries.append(entry)
            defer { pending.threadRunning = true }
            return (!pending.threadRunning, firstDrop)
        }
        if firstDrop { tellOutage() }
        if startThread { Thread.detachNewThread { [self] in run() } }
        wake.signal()
    }

    /// Tells, once an outage, that entries are being dropped.
    private func tellOutage() {
        report("journal: Redis at \(client.url.host):\(client.url.port) is away and \(Self.queueLimit) entries wait for it: "
               + "older entries are dropped until it is back (GET /__accord/requests counts them)")
    }

    /// Writes every queued entry now, in the caller's thread.
    func flush() throws(RedisError) {
        while try writeBatch() {}
    }

    /// Takes up to ``batchLimit`` entries and writes them; false when none waited. On
    /// failure they go back to the front of the queue.
    private func writeBatch() throws(RedisError) -> Bool {
        let result: Result<Bool, RedisError> = written.withLock { written in
            let batch = pending.withLock { pending -> [[UInt8]] in
                let taken = Array(pending.entries.prefix(Self.batchLimit))
                pending.entries.removeFirst(taken.count)
                return taken
            }
            guard !batch.isEmpty else { return .success(false) }
            do throws(RedisError) {
                try client.run(Self.add, keys: [client.key("journal")], arguments: [capacity] + batch)
                written += batch.count
                pending.withLock { $0.dropping = false }
                return .success(true)
            } catch {
                // A batch put back where the queue filled up meanwhile loses its oldest
                // entries: counted, and told if they are the outage's first.
                let firstDrop = pending.withLock { pending -> Bool in
                    let room = max(0, Self.queueLimit - pending.entries.count)
                    pending.entries.insert(contentsOf: batch.suffix(min(room, batch.count)), at: 0)
                    guard batch.count > room else { return false }
                    pending.dropped += batch.count - room
                    defer { pending.dropping = true }
                    return !pending.dropping
                }
                if firstDrop { tellOutage() }
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The writing thread: wakes on each queued entry, writes what waits, retries every
    /// 100 ms while Redis is away, and ends after a second with nothing to write.
    private func run() {
        while true {
            if wake.wait(timeout: .now() + 1) == .timedOut {
                let done = pending.withLock { pending -> Bool in
                    if pending.entries.isEmpty { pending.threadRunning = false }
                    return !pending.threadRunning
                }
                if done { return }
            }
            do {
                try flush()
            } catch {
                Thread.sleep(forTimeInterval: 0.1)
                wake.signal()
            }
        }
    }
}
