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

    /// The body streamed from `file` by the session (`upload(for:fromFile:)`).
    public func upload(_ request: URLRequest, fromFile file: URL) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.upload(for: request, fromFile: file)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
    }

    private static func send(_ request: URLRequest, on session: URLSession) async throws -> (Data, HTTPURLResponse) {
        let (data, response) = try await session.data(for: request)
        guard let http = response as? HTTPURLResponse else { throw URLError(.badServerResponse) }
        return (data, http)
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
/// One streamed exchange on Linux, where `URLSession.bytes(for:)` is missing: a data
/// delegate hands on the head and each chunk as the session receives them.
nonisolated final class StreamingTask: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private let lock = NSLock()
    /// Waits for the head; nil once it has been answered.
    private var head: CheckedContinuation<HTTPURLResponse, any Error>?
    private let chunks: AsyncThrowingStream<Data, any Error>.Continuation

    private init(head: CheckedContinuation<HTTPURLResponse, any Error>, chunks: AsyncThrowingStream<Data, any Error>.Continuation) {
        self.head = head
        self.chunks = chunks
    }

    static func open(_ request: URLRequest, configuration: URLSessionConfiguration) async throws -> (HTTPURLResponse, AsyncThrowingStream<Data, any Error>) {
        let (stream, continuation) = AsyncThrowingStream<Data, any Error>.makeStream()
        let box = TaskBox()
        let response = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (head: CheckedContinuation<HTTPURLResponse, any Error>) in
                let delegate = StreamingTask(head: head, chunks: continuation)
                let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)
                let task = session.dataTask(with: request)
                box.attach(task)
                continuation.onTermination = { _ in task.cancel() }
                task.resume()
                // The session keeps its delegate until the task ends, then lets both go.
                session.finishTasksAndInvalidate()
            }
        } onCancel: {
            box.cancel()
        }
        return (response, stream)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
                    completionHandler: @escaping (URLSession.ResponseDisposition) -> Void) {
        if let http = response as? HTTPURLResponse {
            takeHead()?.resume(returning: http)
        } else {
            takeHead()?.resume(throwing: URLError(.badServerResponse))
        }
        completionHandler(.allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        chunks.yield(data)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        if let error {
            takeHead()?.resume(throwing: error)
            chunks.finish(throwing: error)
        } else {
            takeHead()?.resume(throwing: URLError(.badServerResponse))
            chunks.finish()
        }
    }

    private func takeHead() -> CheckedContinuation<HTTPURLResponse, any Error>? {
        lock.lock()
        defer { lock.unlock() }
        let waiting = head
        head = nil
        return waiting
    }

    /// The task, for a cancellation that may come before it exists.
    private final class TaskBox: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: URLSessionDataTask?
        private var cancelled = false

        /// Keeps `task`, cancelling it at once if the caller already gave up.
        func attach(_ task: URLSessionDataTask) {
            let cancelNow = lock.withLock { () -> Bool in
                stored = task
                return cancelled
            }
            if cancelNow { task.cancel() }
        }

        func cancel() {
            let task = lock.withLock { () -> URLSessionDataTask? in
                cancelled = true
                return stored
            }
            task?.cancel()
        }
    }
}
#endif
