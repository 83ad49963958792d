import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

#if canImport(FoundationNetworking)
/// One streamed exchange on Linux, where `URLSession.bytes(for:)` is missing: a data
/// delegate hands on the head and each chunk as the session receives them. A caller that
/// stops waiting or reading is let go of, as in ``SessionExchange``.
nonisolated final class StreamingTask: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let head = OnceGate<Result<HTTPURLResponse, any Error>>()
    private let chunks: AsyncThrowingStream<Data, any Error>.Continuation

    private init(chunks: AsyncThrowingStream<Data, any Error>.Continuation) {
        self.chunks = chunks
    }

    static func open(_ request: URLRequest, configuration: URLSessionConfiguration) async throws -> (HTTPURLResponse, AsyncThrowingStream<Data, any Error>) {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let delegate = StreamingTask(chunks: continuation)
        let response = try await withTaskCancellationHandler {
            await withCheckedContinuation { waiting in
                delegate.head.wait(with: waiting)
                guard !Task.isCancelled else { return }
                SessionExchange.begin {
                    let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
                    session.dataTask(with: request).resume()
                    // The session keeps its delegate until the task ends, then lets both go.
                    session.finishTasksAndInvalidate()
                }
            }
        } onCancel: {
            delegate.head.open(with: .failure(URLError(.cancelled)))
            continuation.finish(throwing: URLError(.cancelled))
        }.get()
        return (response, stream)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let http = response as? HTTPURLResponse {
            head.open(with: .success(http))
        } else {
            head.open(with: .failure(URLError(.badServerResponse)))
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        chunks.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            head.open(with: .failure(error))
            chunks.finish(throwing: error)
        } else {
            head.open(with: .failure(URLError(.badServerResponse)))
            chunks.finish()
        }
    }
}
#endif
