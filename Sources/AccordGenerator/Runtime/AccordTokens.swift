import Foundation
#if canImport(Security)
import Security
#endif

/// The pair of tokens a login or refresh hands out.
public struct Tokens: Codable, Hashable, Sendable {
    public var accessToken: String
    public var refreshToken: String

    public init(accessToken: String, refreshToken: String) {
        self.accessToken = accessToken
        self.refreshToken = refreshToken
    }
}

/// A response that carries tokens (login, refresh): the client stores them.
public protocol TokenIssuing {
    var issuedTokens: Tokens { get }
}

extension Tokens: TokenIssuing {
    public var issuedTokens: Tokens { self }
}

/// Where tokens live between requests and launches.
public protocol TokenStorage: Sendable {
    func load() async -> Tokens?
    func save(_ tokens: Tokens?) async
}

/// Tokens in memory, for tests and previews.
public actor InMemoryTokenStorage: TokenStorage {
    private var tokens: Tokens?

    public init(_ tokens: Tokens? = nil) {
        self.tokens = tokens
    }

    public func load() async -> Tokens? { tokens }
    public func save(_ tokens: Tokens?) async { self.tokens = tokens }
}

#if canImport(Security)
/// Tokens in the Keychain, as one generic-password item.
public actor KeychainTokenStorage: TokenStorage {
    private let service: String

    public init(service: String) {
        self.service = service
    }

    public func load() async -> Tokens? {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                                    kSecReturnData as String: true, kSecMatchLimit as String: kSecMatchLimitOne]
        var item: CFTypeRef?
        guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess, let data = item as? Data else { return nil }
        return try? JSONDecoder().decode(Tokens.self, from: data)
    }

    public func save(_ tokens: Tokens?) async {
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
        SecItemDelete(query as CFDictionary)
        guard let tokens, let data = try? JSONEncoder().encode(tokens) else { return }
        var item = query
        item[kSecValueData as String] = data
        item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
        SecItemAdd(item as CFDictionary, nil)
    }
}
#endif
