import AccordHTTP
import AccordMock

/// Which headers cross the proxy (RFC 9110 §7.6.1): hop-by-hop fields, and those the
/// `Connection` header names, belong to one connection and stop here; framing is
/// written anew on each side; Accord's steering headers stop here too.
public enum ForwardedHeaders {
    /// Fields that describe one connection, lowercased.
    public static let hopByHop: Set<String> = ["connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade",
                                        "proxy-authorization", "proxy-authenticate"]

    /// The request's headers to send upstream. `Host` is the upstream's (libcurl writes
    /// it from the URL), the body's length is counted again, `Accept-Encoding` is not
    /// sent so the answer arrives readable, and `Via` names the proxy. A header the
    /// request lacks is suppressed where libcurl would add its own (`Accept`,
    /// `Content-Type`).
    public static func upstream(_ request: MockRequest) -> [(name: String, value: String)] {
        let named = connectionOptions(request.headers["connection"])
        var headers: [(name: String, value: String)] = []
        for (name, value) in request.headers where !hopByHop.contains(name) && !named.contains(name)
            && !ForwardingGate.steeringHeaders.contains(name) && !["host", "content-length", "expect", "accept-encoding", "via"].contains(name) {
            headers.append((name, value))
        }
        let via = request.headers["via"].map { $0 + ", " } ?? ""
        headers.append(("via", via + "1.1 accord"))
        for name in ["accept", "content-type"] where request.headers[name] == nil {
            headers.append((name, "")) // "Name:" with no value: libcurl sends none
        }
        return headers
    }

    /// The upstream's answer headers to send back: framing (`Content-Length`,
    /// `Transfer-Encoding`) is the server's own on this side.
    public static func downstream(_ headers: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let names = headers.map { ASCII.lowercased($0.name) }
        let named = connectionOptions(names.firstIndex(of: "connection").map { headers[$0].value })
        return zip(names, headers).filter { name, _ in !hopByHop.contains(name) && !named.contains(name) && name != "content-length" }.map(\.1)
    }

    /// The field names a `Connection` header lists, lowercased.
    private static func connectionOptions(_ value: String?) -> Set<String> {
        guard let value else { return [] }
        return Set(value.split(separator: ",").map { ASCII.lowercased(String(ASCII.trimmed($0))) })
    }
}
