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
        let bytes = target.utf8
        guard bytes.first == UInt8(ascii: "/") else { return nil }
        let end = bytes.firstIndex(of: UInt8(ascii: "#")) ?? bytes.endIndex
        let pathEnd = bytes[..<end].firstIndex(of: UInt8(ascii: "?")) ?? end
        return origin + pathPrefix + Self.removingDotSegments(target[..<pathEnd]) + target[pathEnd..<end]
    }

    /// `path` (starting with `/`) without `.` and `..` segments, written plainly or percent-encoded.
    static func removingDotSegments(_ path: Substring) -> String {
        // Most paths have none: kept as they are.
        guard path.utf8.contains(UInt8(ascii: ".")) || path.utf8.contains(UInt8(ascii: "%")) else { return String(path) }
        var kept: [Substring] = []
        // Split on the bytes: a combining mark after a slash makes one character of both.
        let segments = path.utf8.dropFirst().split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).map(Substring.init)
        for (index, segment) in segments.enumerated() {
            let last = index == segments.count - 1
            switch dots(in: segment) {
            case 1:
                if last { kept.append("") }
            case 2:
                _ = kept.popLast()
                if last { kept.append("") }
            default:
                kept.append(segment)
            }
        }
        return "/" + kept.joined(separator: "/")
    }

    /// How many dots `segment` spells when it is nothing but dots, plain or as `%2e`
    /// (either case); 0 when it is anything else.
    static func dots(in segment: Substring) -> Int {
        var count = 0
        var bytes = segment.utf8[...]
        while let byte = bytes.first, count < 3 {
            if byte == UInt8(ascii: ".") {
                bytes = bytes.dropFirst()
            } else if bytes.starts(with: "%2e".utf8) || bytes.starts(with: "%2E".utf8) {
                bytes = bytes.dropFirst(3)
            } else {
                return 0
            }
            count += 1
        }
        return bytes.isEmpty ? count : 0
    }

    public var description: String { origin + pathPrefix }
}
