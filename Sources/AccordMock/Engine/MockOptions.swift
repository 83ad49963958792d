import AccordMocksFormat

/// How the mock server behaves beyond what the contract says.
public struct MockOptions: Sendable {
    /// Check `X-Sign` (the `--no-sign` flag turns it off).
    public var verifiesSignatures: Bool
    /// The largest body accepted, in bytes (`--max-body`).
    public var maxBodyBytes: Int
    /// The `Access-Control-Allow-Origin` answered, or nil to leave CORS off.
    public var corsAllowOrigin: String?
    /// The scenario every session runs unless its `X-Accord-Scenario` names another (`--scenario`).
    public var scenario: String?
    /// The token the control API requires in `X-Accord-Admin-Token`; without one, it
    /// answers loopback peers only.
    public var adminToken: String?
    /// Accept `X-Accord-Inject`, `X-Accord-Scenario` and `X-Accord-Session` from peers
    /// beyond loopback without the admin token (`--allow-remote-steering`).
    public var allowsRemoteSteering = false
    /// The names and addresses a request's `Host` may give for the control API and the
    /// console besides loopback (`localhost`, `127.x`, `[::1]`): the machine's own, when
    /// it listens beyond loopback. Anything else is a DNS-rebinding page and is refused.
    public var serverNames: Set<String> = []
    /// `https` when the server serves TLS (`--tls`): the scheme of the URLs it hands out.
    public var scheme = "http"
    /// The host and port of the URLs the mock hands out when a request's `Host` names another server.
    public var fallbackHost = "localhost"
    /// Hold each session's requests to the flows of the codes it was answered (`--check-flows`).
    public var checksFlows = false
    /// `--seed`: with each session's name, the order in which `exercise-flows-random` injects an endpoint's flows.
    public var seed: UInt64 = 0

    /// Where the mock's own URLs point (uploads, public files).
    public var publicOrigin: PublicOrigin { PublicOrigin(scheme: scheme, fallbackHost: fallbackHost, serverNames: serverNames) }

    public init(verifiesSignatures: Bool = true, maxBodyBytes: Int = 1 << 20, corsAllowOrigin: String? = "*",
                scenario: String? = nil, adminToken: String? = nil) {
        self.verifiesSignatures = verifiesSignatures
        self.maxBodyBytes = maxBodyBytes
        self.corsAllowOrigin = corsAllowOrigin
        self.scenario = scenario
        self.adminToken = adminToken
    }
}
