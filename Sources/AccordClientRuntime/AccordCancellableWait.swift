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
