import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What the client sends its signed requests through: `URLSessionTransport` in an app,
/// an in-process transport in a test or a preview.
public protocol Transport: Sendable {
    /// Sends `request` and returns the whole answer.
    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)

    /// Sends a token refresh. The refresh token rotates, so a refresh must not share a
    /// connection that the HTTP stack might find dead and resend on by itself; the
    /// default is `send`.
    func sendRefresh(_ request: URLRequest) async throws -> (Data, HTTPURLResponse)

    /// Sends `request` and returns the answer's head as soon as it arrives, with its
    /// body as a sequence of chunks in arrival order.
    func open(_ request: URLRequest) async throws -> (HTTPURLResponse, AsyncThrowingStream<Data, any Error>)

    /// Sends `request` with its body read from `file` as it goes (multipart uploads);
    /// the default reads the file whole and calls `send`.
    func upload(_ request: URLRequest, fromFile file: URL) async throws -> (Data, HTTPURLResponse)
}

nonisolated extension Transport {
    public func sendRefresh(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await send(request)
    }

    public func upload(_ request: URLRequest, fromFile file: URL) async throws -> (Data, HTTPURLResponse) {
        var request = request
        request.httpBody = try Data(contentsOf: file)
        return try await send(request)
    }

    /// The whole answer as one chunk, for transports that cannot stream.
    public func open(_ request: URLRequest) async throws -> (HTTPURLResponse, AsyncThrowingStream<Data, any Error>) {
        let (data, response) = try await send(request)
        return (response, AsyncThrowingStream { continuation in
            continuation.yield(data)
            continuation.finish()
        })
    }
}

/// Sends through a `URLSession`.
///
/// Streams arrive chunk by chunk on every platform: through `URLSession.bytes(for:)`
/// where Foundation has it (Apple platforms), and through a data delegate where it does
/// not (Linux's FoundationNetworking).
///
/// Refreshes go through a second, ephemeral session of their own, so they never wait on
/// or reuse the connections of ordinary calls.
///
/// A cancelled call (a timeout too) throws `URLError(.cancelled)` at once. On Apple
/// platforms its session task is cancelled; on Linux it is left to end by itself within
/// the request's `timeoutInterval`, because FoundationNetworking can deadlock or stop the
/// process when a task is cancelled as its answer arrives.
public nonisolated struct URLSessionTransport: Transport {
    public let session: URLSession
    private let refreshSession: URLSession

    public init(session: URLSession = URLSession(configuration: .default)) {
        self.session = session
        self.refreshSession = URLSession(configuration: .ephemeral)
    }

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await Self.send(request, on: session)
    }

    public func sendRefresh(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await Self.send(request, on: refreshSession)
    }

    /// The body streamed from `file` by the session.
    public func upload(_ request: URLRequest, fromFile file: URL) async throws -> (Data, HTTPURLResponse) {
        #if canImport(FoundationNetworking)
        return try await SessionExchange.run { session.uploadTask(with: request, fromFile: file, completionHandler: $0) }
        #else
        let (data, response) = try await session.upload(for: request, fromFile: file)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
        #endif
    }

    private static func send(_ request: URLRequest, on session: URLSession) async throws -> (Data, HTTPURLResponse) {
        #if canImport(FoundationNetworking)
        return try await SessionExchange.run { session.dataTask(with: request, completionHandler: $0) }
        #else
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
        #endif
    }

    public func open(_ request: URLRequest) async throws -> (HTTPURLResponse, AsyncThrowingStream<Data, any Error>) {
        #if canImport(FoundationNetworking)
        return try await StreamingTask.open(request, configuration: session.configuration)
        #else
        let (bytes, response) = try await session.bytes(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        let chunks = AsyncThrowingStream<Data, any Error> { continuation in
            let reader = Task {
                // A chunk ends at each line break, so an event is handed on as soon as its
                // blank line arrives.
                var chunk = Data()
                do {
                    for try await byte in bytes {
                        chunk.append(byte)
                        if byte == 0x0A || byte == 0x0D || chunk.count >= 4_096 {
                            continuation.yield(chunk)
                            chunk.removeAll(keepingCapacity: true)
                        }
                    }
                    if !chunk.isEmpty { continuation.yield(chunk) }
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in reader.cancel() }
        }
        return (http, chunks)
        #endif
    }
}

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
    static func run(_ start: @Sendable (@escaping Completion) -> URLSessionTask) async throws -> (Data, HTTPURLResponse) {
        let gate = OnceGate<Result<(Data, HTTPURLResponse), any Error>>()
        return try await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                gate.wait(with: continuation)
                // A caller cancelled before it began has its answer already: nothing is sent.
                guard !Task.isCancelled else { return }
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
        } onCancel: {
            gate.open(with: .failure(URLError(.cancelled)))
        }.get()
    }
}

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
                let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
                session.dataTask(with: request).resume()
                // The session keeps its delegate until the task ends, then lets both go.
                session.finishTasksAndInvalidate()
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
