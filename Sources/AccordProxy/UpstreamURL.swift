import Foundation

/// Where `accord proxy` forwards: an `http` or `https` origin and an optional path
/// prefix, checked when the proxy starts so a typo is one clear error, not a 502 on
/// every request.
public struct UpstreamURL: Sendable, Equatable, CustomStringConvertible {
    /// Why a text is not an upstream URL.
    public struct Invalid: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    /// `http` or `https`.
    public let scheme: String
    /// The host as written (an IPv6 literal keeps its brackets).
    public let host: String
    public let port: Int?
    /// A path every forwarded target is appended to, without a trailing slash (often empty).
    public let pathPrefix: String

    public init(parsing text: String) throws(Invalid) {
        guard let components = URLComponents(string: text), let scheme = components.scheme?.lowercased() else {
            throw Invalid(description: "'\(text)' is not a URL; give one such as https://staging.example.com or http://127.0.0.1:9000")
        }
        guard scheme == "http" || scheme == "https" else {
            throw Invalid(description: "'\(text)': the upstream must be http:// or https://, found \(scheme)://")
        }
        guard let host = components.percentEncodedHost, !host.isEmpty else {
            throw Invalid(description: "'\(text)' names no host")
        }
        guard components.user == nil, components.password == nil else {
            throw Invalid(description: "'\(text)': credentials in the URL are not forwarded; send them as headers from the app")
        }
        guard components.percentEncodedQuery == nil, components.fragment == nil else {
            throw Invalid(description: "'\(text)': an upstream URL takes no query or fragment")
        }
        if let port = components.port, !(1...65_535).contains(port) {
            throw Invalid(description: "'\(text)': port \(port) is outside 1–65535")
        }
        self.scheme = scheme
        self.host = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
        port = components.port
        var path = components.percentEncodedPath
        while path.hasSuffix("/") { path.removeLast() }
        pathPrefix = path
    }

    /// The origin: `https://staging.example.com:8443`.
    public var origin: String {
        "\(scheme)://\(host)\(port.map { ":\($0)" } ?? "")"
    }

    /// The URL a request target (`/api/v1/signals?limit=20`, as sent) is forwarded to:
    /// built from parts, never by pasting the target after the host, so nothing in it
    /// reaches the authority. The origin is fixed; the path's dot segments (`.`, `..`,
    /// and their percent-encoded forms) are removed (RFC 3986 §5.2.4) before the prefix is
    /// put in front, so `/../internal` stays under `/gateway`; a fragment is dropped.
    /// Nil for a target that is not a path (`@host:port/…`, `:port/…`, `http://…`, `*`).
    public func url(for target: String) -> String? {
        guard target.utf8.first == UInt8(ascii: "/") else { return nil }
        let withoutFragment = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)[0]
        let parts = withoutFragment.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let query = parts.count > 1 ? "?" + parts[1] : ""
        return origin + pathPrefix + Self.removingDotSegments(parts[0]) + query
    }

    /// `path` (starting with `/`) without `.` and `..` segments, written plainly or percent-encoded.
    static func removingDotSegments(_ path: Substring) -> String {
        var kept: [Substring] = []
        let segments = path.dropFirst().split(separator: "/", omittingEmptySubsequences: false)
        for (index, segment) in segments.enumerated() {
            let dots = segment.lowercased().replacingOccurrences(of: "%2e", with: ".")
            let last = index == segments.count - 1
            switch dots {
            case ".":
                if last { kept.append("") }
            case "..":
                _ = kept.popLast()
                if last { kept.append("") }
            default:
                kept.append(segment)
            }
        }
        return "/" + kept.joined(separator: "/")
    }

    public var description: String { origin + pathPrefix }
}
