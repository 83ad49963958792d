/// What a routed request is about to read of the storage, told before it reads any of it
/// (``MockStorage/preview(_:)``), so a shared storage fetches it all in the request's
/// first round trip: the token its endpoint checks, the session it names, and whether
/// its answer may take a `{{seq}}` number.
public struct RequestPreview: Sendable, Equatable {
    /// The access token the endpoint will check; nil when it checks none.
    public var accessToken: String?
    /// The session the request names (`X-Accord-Session`); nil files it under its user, or `anonymous`.
    public var namedSession: String?
    /// Whether an answer of the endpoint holds `{{seq}}`.
    public var takesSequence: Bool

    public init(accessToken: String? = nil, namedSession: String? = nil, takesSequence: Bool = false) {
        self.accessToken = accessToken
        self.namedSession = namedSession
        self.takesSequence = takesSequence
    }
}
