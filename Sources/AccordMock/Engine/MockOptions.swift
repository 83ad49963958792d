/// How the mock server behaves beyond what the contract says.
public struct MockOptions: Sendable {
    /// Check `X-Sign` (the `--no-sign` flag turns it off).
    public var verifiesSignatures: Bool
    /// The largest body accepted, in bytes (`--max-body`).
    public var maxBodyBytes: Int
    /// The `Access-Control-Allow-Origin` answered, or nil to leave CORS off.
    public var corsAllowOrigin: String?

    public init(verifiesSignatures: Bool = true, maxBodyBytes: Int = 1 << 20, corsAllowOrigin: String? = "*") {
        self.verifiesSignatures = verifiesSignatures
        self.maxBodyBytes = maxBodyBytes
        self.corsAllowOrigin = corsAllowOrigin
    }
}
