import Foundation

/// The pair of tokens a login or refresh hands out.
public nonisolated struct Tokens: Codable, Hashable, Sendable {
    public var accessToken: String
    public var refreshToken: String

    public init(accessToken: String, refreshToken: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

nonisolated extension Tokens: TokenIssuing {
    public var issuedTokens: Tokens { self }
}
