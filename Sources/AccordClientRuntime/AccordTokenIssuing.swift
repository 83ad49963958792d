import Foundation

/// A response that carries tokens (login, refresh): the client stores them.
public nonisolated protocol TokenIssuing {
    var issuedTokens: Tokens { get }
}
