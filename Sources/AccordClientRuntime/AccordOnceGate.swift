import Foundation

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
