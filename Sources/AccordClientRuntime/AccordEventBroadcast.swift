import Foundation

/// Every event to every listener: each ``stream()`` gets the events sent after it was
/// made, until it is dropped (a single `AsyncStream` would split events between its
/// readers).
nonisolated final class EventBroadcast<Event: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var listeners: [UUID: AsyncStream<Event>.Continuation] = [:]

    /// A new listener's stream.
    func stream() -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self)
        let id = UUID()
        lock.lock()
        listeners[id] = continuation
        lock.unlock()
        continuation.onTermination = { [weak self] _ in self?.remove(id) }
        return stream
    }

    func send(_ event: Event) {
        lock.lock()
        let current = Array(listeners.values)
        lock.unlock()
        for listener in current { listener.yield(event) }
    }

    private func remove(_ id: UUID) {
        lock.lock()
        listeners[id] = nil
        lock.unlock()
    }
}
