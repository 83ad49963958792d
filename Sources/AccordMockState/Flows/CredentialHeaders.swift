/// The request headers whose values are credentials: the journal shows them as their
/// scheme only (`Bearer <masked>`).
package enum CredentialHeaders {
    /// The control API's admin token (`accord serve --admin-token`), which steers the mock too.
    package static let adminToken = "x-accord-admin-token"
    /// Every one, lowercased.
    package static let names = ["authorization", "cookie", "proxy-authorization", adminToken]

    /// Bit `n` set when a name is `n` bytes long: most headers are told apart by their
    /// length alone, without comparing them with each name (the journal asks this of
    /// every header of every request).
    private static let lengths: UInt64 = names.reduce(0) { mask, name in
        name.utf8.count < 64 ? mask | 1 << UInt64(name.utf8.count) : mask
    }

    /// Whether `name`, lowercased, is one of ``names``.
    package static func contains(_ name: String) -> Bool {
        let length = name.utf8.count
        guard length >= 64 || lengths & 1 << UInt64(length) != 0 else { return false }
        return names.contains(name)
    }
}
