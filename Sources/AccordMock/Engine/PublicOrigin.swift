import AccordHTTP
/// The origin under which the mock hands out its own URLs (an upload's `url`, a direct
/// upload's `upload_url` and `public_url`): `https` when it serves TLS (App Transport
/// Security refuses `http` on iOS), and the request's `Host` only when that names this
/// server — loopback, or one of ``MockOptions/serverNames`` — so a forged `Host` is
/// never reflected into a URL a client then follows.
public struct PublicOrigin: Sendable {
    /// `http` or `https`.
    public var scheme: String
    /// The host (and port) used when the request's `Host` names another server, or none.
    public var fallbackHost: String
    let serverNames: Set<String>

    public init(scheme: String = "http", fallbackHost: String = "localhost", serverNames: Set<String> = []) {
        self.scheme = scheme
        self.fallbackHost = fallbackHost
        self.serverNames = serverNames
    }

    /// `scheme://host` for a request.
    func origin(for request: MockRequest) -> String {
        let host = request.headers["host"].flatMap { ServerName.names($0, thisServer: serverNames) ? $0 : nil }
        return scheme + "://" + (host ?? fallbackHost)
    }
}
