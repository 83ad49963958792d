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
