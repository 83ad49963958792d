/// The request headers whose values are credentials: the journal shows them as their
/// scheme only (`Bearer <masked>`).
package enum CredentialHeaders {
    /// The control API's admin token (`accord serve --admin-token`), which steers the mock too.
    package static let adminToken = "x-accord-admin-token"
    /// Every one, lowercased.
    package static let names = ["authorization", "cookie", "proxy-authorization", adminToken]

    /// The name of each length, `n` bytes at index `n`: no two names share a length, so a
    /// header is told apart by its length and at most one comparison (the journal asks
    /// this of every header of every request).
    private static let byLength: [String?] = names.reduce(into: Array(repeating: nil, count: 64)) { table, name in
        precondition(name.utf8.count < 64 && table[name.utf8.count] == nil, "credential header names have distinct lengths under 64")
        table[name.utf8.count] = name
    }

    /// Whether `name`, lowercased, is one of ``names``.
    package static func contains(_ name: String) -> Bool {
        let length = name.utf8.count
        return length < 64 && byLength[length] == name
    }
}
