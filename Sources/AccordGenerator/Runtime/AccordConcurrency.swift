import Foundation

/// Waits for another task's result in a way the waiting task can give up: when the
/// waiter is cancelled it resumes at once with nil, and the task it waited for goes on
/// for everyone else (a token refresh shared by several calls).
nonisolated enum CancellableWait {
    /// `task`'s value, or nil when the calling task is cancelled first.
    static func value<Value: Sendable>(of task: Task<Value, Never>) async -> Value? {
        let gate = OnceGate<Value?>()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Value?, Never>) in
                gate.wait(with: continuation)
                Task { gate.open(with: await task.value) }
            }
        } onCancel: {
            gate.open(with: nil)
        }
    }
}

/// Resumes its one continuation exactly once, with whichever outcome comes first; an
/// outcome that comes before the continuation waits for it.
nonisolated final class OnceGate<Outcome: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<Outcome, Never>?
    private var outcome: Outcome?

    init() {}

    func wait(with continuation: CheckedContinuation<Outcome, Never>) {
        lock.lock()
        if let outcome {
            lock.unlock()
            continuation.resume(returning: outcome)
        } else {
            self.continuation = continuation
            lock.unlock()
        }
    }

    func open(with value: Outcome) {
        lock.lock()
        guard outcome == nil else { lock.unlock(); return }
        outcome = value
        let waiting = continuation
        continuation = nil
        lock.unlock()
        waiting?.resume(returning: value)
    }
}

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

