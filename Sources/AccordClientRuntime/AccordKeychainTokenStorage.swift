import Foundation
#if canImport(Security)
import Security
#endif

#if canImport(Security)
/// Tokens in the Keychain, as one generic-password item readable after the device's
/// first unlock and never leaving it (`…AfterFirstUnlockThisDeviceOnly`), so a
/// background launch can refresh.
///
/// A save updates the item in place, or adds it when there is none, so no moment
/// exists without tokens; every failure is thrown with its `OSStatus`, and a read
/// refused because the device is locked (`errSecInteractionNotAllowed`) is an error,
/// not an empty Keychain.
public actor KeychainTokenStorage: TokenStorage {
    /// A Keychain call that failed.
    public struct Failure: Error, CustomStringConvertible {
        public var operation: String
        public var status: OSStatus
        public var description: String {
            let message = SecCopyErrorMessageString(status, nil) as String? ?? "OSStatus \(status)"
            return "Keychain \(operation) failed: \(message)"
        }
    }

    private let service: String
    private let account: String

    public init(service: String, account: String = "tokens") {
        self.service = service
        self.account = account
    }

    private var itemQuery: [String: Any] {
        [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account]
    }

    public func load() async throws -> Tokens? {
        var query = itemQuery
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = item as? Data else { throw Failure(operation: "read", status: status) }
        return try JSONDecoder().decode(Tokens.self, from: data)
    }

    public func save(_ tokens: Tokens?) async throws {
        guard let tokens else {
            let status = SecItemDelete(itemQuery as CFDictionary)
            guard status == errSecSuccess || status == errSecItemNotFound else { throw Failure(operation: "delete", status: status) }
            return
        }
        let data = try JSONEncoder().encode(tokens)
        let attributes: [String: Any] = [kSecValueData as String: data,
                                         kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly]
        let status = SecItemUpdate(itemQuery as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            let added = SecItemAdd(itemQuery.merging(attributes) { $1 } as CFDictionary, nil)
            guard added == errSecSuccess else { throw Failure(operation: "add", status: added) }
        } else if status != errSecSuccess {
            throw Failure(operation: "update", status: status)
        }
    }
}
#endif
