import AccordHTTP
import AccordJSON
import AccordSync
import Dispatch
import Synchronization

/// The journal as it grows, for `GET /__accord/events` (the web console's live
/// traffic): each subscriber gets the entries its filter admits as server-sent events
/// (`id: SEQ`, `event: request`, `data: ENTRY`).
///
/// The requests being journaled never wait for a subscriber: an entry is written as
/// JSON once and appended to each subscriber's queue, which a timer moves into the
/// subscriber's stream every ``flushMilliseconds`` (and the request that fills it to
/// ``batchBytes`` at once). A subscriber that reads too slowly
/// loses entries beyond ``backlogBytes`` (queued, plus its stream's buffer) and is told
/// how many (`event: dropped`). At
/// most ``subscriberLimit`` subscribe at once; a stream also carries a comment every
/// ``heartbeatSeconds`` so a closed connection is noticed.
public final class JournalFeed: Sendable {
    /// The most streams open at once.
    public static let subscriberLimit = 16
    /// The most bytes queued for one subscriber before entries are dropped (1 MiB by default).
    public let backlogBytes: Int
    /// The bytes a subscriber's stream holds unread (256 KiB by default).
    package let streamBytes: Int
    /// How often queued entries are moved into the streams.
    package static let flushMilliseconds = 100
    /// A queue this long is moved into its stream at once, by the request that filled
    /// it: under load a stream is fed in batches of about a hundred entries, not only
    /// ten times a second.
    package static let batchBytes = 64 << 10
    package static let heartbeatSeconds = 15

    private struct Subscriber {
        let pipe: BodyPipe
        let filter: JournalFilter
        var queued: [UInt8] = []
        var dropped = 0
        /// The newest entry number this stream was offered (its replay, or what followed).
        var seen: Int
    }

    private struct State {
        var subscribers: [Subscriber] = []
        var timer: DispatchSourceTimer?
        var ticks = 0
    }

    private let state = Locked(State())
    /// How many subscribe: read without the lock, so a journal nobody watches pays nothing.
    private let listening = Atomic<Int>(0)
    private let queue = DispatchQueue(label: "accord.journal.feed")

    public init(backlogBytes: Int = 1 << 20, streamBytes: Int = 256 << 10) {
        self.backlogBytes = max(1, backlogBytes)
        self.streamBytes = max(1, streamBytes)
    }

    deinit {
        state.withLock { $0.timer?.cancel() }
    }

    /// Why a stream cannot be opened.
    public struct Full: Error, Sendable {
        public let limit: Int
    }

    /// A new stream: first `replay` (entries already kept), then every new entry `filter` admits.
    /// - Parameter after: for a shared journal, the newest entry number when the stream
    ///   opened: entries up to it are the replay's, the ones after it follow live.
    public func subscribe(filter: JournalFilter, replay: [JournalEntry], after: Int = 0) throws(Full) -> BodyPipe {
        let pipe = BodyPipe(capacity: streamBytes)
        var subscriber = Subscriber(pipe: pipe, filter: filter, seen: max(after, replay.last?.sequence ?? 0))
        subscriber.queued = Array("retry: 1000\n\n".utf8)
        // The replay is held to the same backlog as what follows: the newest entries that fit, the older ones counted as dropped.
        var events: [[UInt8]] = []
        var bytes = subscriber.queued.count
        for entry in replay.reversed() {
            let event = Self.event(entry)
            guard bytes + event.count <= backlogBytes else {
                subscriber.dropped = replay.count - events.count
                break
            }
            bytes += event.count
            events.append(event)
        }
        for event in events.reversed() { subscriber.queued += event }
        let added = state.withLock { state -> Bool in
            guard state.subscribers.count < Self.subscriberLimit else { return false }
            state.subscribers.append(subscriber)
            if state.timer == nil { state.timer = startTimer() }
            return true
        }
        guard added else { throw Full(limit: Self.subscriberLimit) }
        listening.add(1, ordering: .relaxed)
        flush()
        return pipe
    }

    /// Queues `entry` for every subscriber whose filter admits it. The entry is written
    /// out before the lock is taken, so the requests of other workers do not wait on it.
    public func publish(_ entry: JournalEntry) {
        offer(entry, inOrder: false)
    }

    /// Queues `entry`, one of a shared journal's read in its order, for every subscriber
    /// that has not been offered it yet and whose filter admits it: a reader that starts
    /// again from ``oldestSeen`` gives no stream an entry twice.
    public func publishInOrder(_ entry: JournalEntry) {
        offer(entry, inOrder: true)
    }

    /// The oldest entry number an open stream was offered, from which a shared journal's
    /// reader goes on; nil while none is open.
    public var oldestSeen: Int? {
        guard listening.load(ordering: .relaxed) > 0 else { return nil }
        return state.withLock { $0.subscribers.lazy.map(\.seen).min() }
    }

    private func offer(_ entry: JournalEntry, inOrder: Bool) {
        guard listening.load(ordering: .relaxed) > 0 else { return }
        var output = ByteOutput(capacity: entry.estimatedSize + 48)
        Self.write(entry, into: &output)
        // Each queue takes the event from the buffer it was written into: no array in between.
        output.withUnsafeBytes { event in
            state.withLock { state in
                for index in state.subscribers.indices {
                    if inOrder {
                        guard entry.sequence > state.subscribers[index].seen else { continue }
                        state.subscribers[index].seen = entry.sequence
                    }
                    guard state.subscribers[index].filter.admits(entry) else { continue }
                    if state.subscribers[index].queued.count + event.count > backlogBytes {
                        state.subscribers[index].dropped += 1
                        continue
                    }
                    state.subscribers[index].queued.append(contentsOf: event)
                    if state.subscribers[index].queued.count >= Self.batchBytes,
                       let taken = state.subscribers[index].pipe.offer(state.subscribers[index].queued[...]) {
                        state.subscribers[index].queued.removeFirst(taken)
                    }
                }
            }
        }
    }

    /// Ends every stream (the server stops): each reader gets the end of its body.
    public func finishAll() {
        let pipes = state.withLock { state -> [BodyPipe] in
            defer { state.subscribers.removeAll() }
            return state.subscribers.map(\.pipe)
        }
        listening.store(0, ordering: .relaxed)
        for pipe in pipes { pipe.finish() }
    }

    /// How many streams are open.
    public var subscriberCount: Int { listening.load(ordering: .relaxed) }

    /// `id: 7` / `event: request` / `data: {…}` and the blank line.
    package static func event(_ entry: JournalEntry) -> [UInt8] {
        var output = ByteOutput(capacity: entry.estimatedSize + 48)
        write(entry, into: &output)
        return output.bytes()
    }

    /// ``event(_:)`` appended to `output`.
    private static func write(_ entry: JournalEntry, into output: inout ByteOutput) {
        output.append("id: ")
        JSONWriter.writeInteger(entry.sequence, into: &output)
        output.append("\nevent: request\ndata: ")
        entry.write(into: &output)
        output.append("\n\n")
    }

    private func startTimer() -> DispatchSourceTimer {
        let timer = DispatchSource.makeTimerSource(queue: queue)
        timer.schedule(deadline: .now() + .milliseconds(Self.flushMilliseconds), repeating: .milliseconds(Self.flushMilliseconds))
        timer.setEventHandler { [weak self] in self?.flush() }
        timer.resume()
        return timer
    }

    /// Moves what is queued into each stream, as much as each takes; forgets the streams whose reader left.
    private func flush() {
        var gone = 0
        state.withLock { state in
            state.ticks += 1
            let heartbeat = state.ticks % (Self.heartbeatSeconds * 1_000 / Self.flushMilliseconds) == 0
            var kept: [Subscriber] = []
            for var subscriber in state.subscribers {
                if subscriber.dropped > 0 {
                    subscriber.queued += Array("event: dropped\ndata: {\"dropped\":\(subscriber.dropped)}\n\n".utf8)
                    subscriber.dropped = 0
                }
                if heartbeat && subscriber.queued.isEmpty { subscriber.queued = Array(": keep-alive\n\n".utf8) }
                guard let taken = subscriber.pipe.offer(subscriber.queued[...]) else {
                    gone += 1
                    continue
                }
                subscriber.queued.removeFirst(taken)
                kept.append(subscriber)
            }
            state.subscribers = kept
        }
        if gone > 0 { listening.subtract(gone, ordering: .relaxed) }
    }
}
