import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(FoundationNetworking)
/// One whole exchange on Linux, where a cancelled call is let go of, not its session task.
///
/// FoundationNetworking (checked on Swift 6.3.1) fails when a task is cancelled as its
/// answer arrives — and a client timeout is such a cancellation: `data(for:)` can
/// deadlock (its cancellation handler waits for the session's work queue under the
/// task's status lock, while the queue resumes the task and waits for that lock, so the
/// session never answers again), and `URLSessionTask.cancel()` itself can stop the
/// process (a fatal error when the transfer completes between its two steps). So the
/// caller is answered `URLError(.cancelled)` at once, and the transfer is left to end by
/// itself, within the request's `timeoutInterval`.
nonisolated enum SessionExchange {
    typealias Completion = @Sendable (Data?, URLResponse?, (any Error)?) -> Void

    /// The answer to the task `start` makes with the completion handler it is given.
    static func run(_ start: @escaping @Sendable (@escaping Completion) -> URLSessionTask) async throws -> (Data, HTTPURLResponse) {
        let gate = OnceGate<Result<(Data, HTTPURLResponse), any Error>>()
        return try await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                gate.wait(with: continuation)
                // A caller cancelled before it began has its answer already: nothing is sent.
                guard !Task.isCancelled else { return }
                begin {
                    start { data, response, error in
                        if let error {
                            gate.open(with: .failure(error))
                        } else if let http = response as? HTTPURLResponse {
                            gate.open(with: .success((data ?? Data(), http)))
                        } else {
                            gate.open(with: .failure(URLError(.badServerResponse)))
                        }
                    }.resume()
                }
            }
        } onCancel: {
            gate.open(with: .failure(URLError(.cancelled)))
        }.get()
    }

    /// Runs `work`, which makes and resumes a session task, on a thread of Dispatch's:
    /// FoundationNetworking's `dataTask(…)` and `resume()` wait (`sync`) on the session's
    /// work queue, which holds them up while it is busy with other transfers. Waiting
    /// there, a thread of Swift's cooperative pool (as many as the cores) is lost to every
    /// other task, and a caller cancelled meanwhile is not answered until the queue lets
    /// go.
    static func begin(_ work: @escaping @Sendable () -> Void) {
        DispatchQueue.global().async(execute: work)
    }
}
#endif
