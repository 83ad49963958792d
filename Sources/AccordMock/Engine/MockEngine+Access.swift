import AccordContract
import AccordCrypto
import AccordHTTP
import AccordMockState
import AccordMocksFormat

/// Who may steer the server through the control API under `/__accord/` (the
/// steering headers are checked by ``SteeringStage``).
///
/// - Control API and console: `Host` must name this server (loopback, or one of
///   ``MockOptions/serverNames``): a DNS-rebinding page reaches `127.0.0.1` under its
///   own name. With `--admin-token`, every call carries it (the console's own files
///   excepted: the page asks for the token); without one, only loopback peers are
///   answered. Everywhere, an `Origin` must be the page's own server (the web
///   console), and a state-changing call must say `Content-Type: application/json`,
///   which neither an HTML form nor a `no-cors` fetch can send: a cross-site page gets
///   it only through a CORS preflight that the control API never grants. Every answer
///   carries a `Content-Security-Policy` that lets no other page frame or script it.
/// - Steering headers (`X-Accord-Inject`, `X-Accord-Scenario`, `X-Accord-Session`)
///   from a peer beyond loopback need the admin token too, unless
///   ``MockOptions/allowsRemoteSteering`` is set.
extension MockEngine {
    /// Why a control call is refused, or nil when it may run.
    /// - Parameter needsToken: false for the console's own files, which hold no state:
    ///   the page asks for the admin token and sends it with every call.
    func controlRefusal(_ request: MockRequest, needsToken: Bool = true) -> MockResponse? {
        if let host = request.headers["host"], !ServerName.names(host, thisServer: options.serverNames) {
            let names = (["localhost", "127.0.0.1", "[::1]"] + options.serverNames.sorted()).joined(separator: ", ")
            return controlError(403, "foreign_host", "the control API answers requests for this server's own names only (\(names)), not for '\(host)'")
        }
        if options.adminToken != nil {
            guard !needsToken || request.carriesAdminToken(options.adminToken) else {
                return controlError(401, "admin_token_required", "the control API needs the X-Accord-Admin-Token header given to --admin-token")
            }
        } else {
            guard request.isFromLoopback else {
                return controlError(403, "loopback_only", "the control API answers loopback clients only; start the server with --admin-token to allow others")
            }
        }
        // Browsers send Sec-Fetch-Site on every request, `<img>`, `<script>` and no-cors fetches included (which send
        // no Origin); curl and apps send none. Only the console's own page, or a URL typed in, may call; a link from
        // another page may open the console's files (a navigation, which holds nothing open and changes nothing).
        if let site = request.headers["sec-fetch-site"], site != "same-origin", site != "none",
           needsToken || request.headers["sec-fetch-mode"] != "navigate" {
            return controlError(403, "cross_site_request", "the control API refuses requests a page of another site made (Sec-Fetch-Site: \(site))")
        }
        if let origin = request.headers["origin"], !ServerName.isSameOrigin(origin, host: request.headers["host"]) {
            return controlError(403, "foreign_origin", "the control API refuses calls from pages of another origin ('\(origin)')")
        }
        if !["GET", "HEAD"].contains(request.method), !MediaTypes.isJSON(request.headers["content-type"] ?? "") {
            return controlError(415, "json_required", "a control call that changes state must send 'Content-Type: application/json' (even with no body)")
        }
        return nil
    }

}

extension MockRequest {
    /// Whether the request carries `token` in `X-Accord-Admin-Token` (compared in constant time).
    func carriesAdminToken(_ token: String?) -> Bool {
        guard let token, let given = headers[CredentialHeaders.adminToken] else { return false }
        return Digest.constantTimeEquals(given.utf8, token.utf8)
    }
}

/// Host names and origins, compared the way a DNS-rebinding or cross-site check needs.
enum ServerName {
    /// Whether a `Host` header names a loopback address: `localhost`, `127.x.x.x`, `[::1]`, with or without a port.
    /// Whether a `Host` header names this server: loopback, or one of `serverNames` (the machine's own, `--tls-name`).
    static func names(_ host: String, thisServer serverNames: Set<String>) -> Bool {
        isLoopback(host) || serverNames.contains(hostName(host).lowercased())
    }

    static func isLoopback(_ host: String) -> Bool {
        let name = hostName(host).lowercased()
        if name == "localhost" || name == "::1" { return true }
        let octets = name.split(separator: ".", omittingEmptySubsequences: false)
        return octets.count == 4 && octets[0] == "127" && octets.allSatisfy { UInt8($0) != nil }
    }

    /// Whether `origin` (`http://host:port`) is the server the request was sent to (`Host`).
    static func isSameOrigin(_ origin: String, host: String?) -> Bool {
        guard let host, let separator = origin.range(of: "://") else { return false }
        let scheme = origin[..<separator.lowerBound].lowercased()
        guard scheme == "http" || scheme == "https" else { return false }
        return origin[separator.upperBound...].lowercased() == host.lowercased()
    }

    /// `example.com:8080` → `example.com`; `[::1]:8080` → `::1`.
    static func hostName(_ host: String) -> Substring {
        if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
            return host[host.index(after: host.startIndex)..<close]
        }
        return host.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
    }
}
