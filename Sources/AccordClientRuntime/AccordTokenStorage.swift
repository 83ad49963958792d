import Foundation

/// Where tokens live between requests and launches. An error is not "no tokens": the
/// client reports it as ``APIError/storage(_:)`` and keeps the session.
public protocol TokenStorage: Sendable {
    func load() async throws -> Tokens?
    /// Stores `tokens`, or forgets them when nil.
    func save(_ tokens: Tokens?) async throws
}
