import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

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
