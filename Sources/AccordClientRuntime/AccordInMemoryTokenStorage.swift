import Foundation

/// Tokens in memory, for tests and previews.
public actor InMemoryTokenStorage: TokenStorage {
    private var tokens: Tokens?

    public init(_ tokens: Tokens? = nil) {
        self.tokens = tokens
    }

    public func load() async -> Tokens? { tokens }
    public func save(_ tokens: Tokens?) async { self.tokens = tokens }
}
