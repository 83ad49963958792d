/// The request headers whose values are credentials: the journal shows them as their
/// scheme only (`Bearer <masked>`).
package enum CredentialHeaders {
    /// The control API's admin token (`accord serve --admin-token`), which steers the mock too.
    package static let adminToken = "x-accord-admin-token"
    /// Every one, lowercased.
    package static let names = ["authorization", "cookie", "proxy-authorization", adminToken]
}
