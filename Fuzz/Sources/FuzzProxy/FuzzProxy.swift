import AccordHTTP
import AccordMock
import AccordProxy

private let upstream: UpstreamURL = {
    guard let url = try? UpstreamURL(parsing: "http://10.1.2.3:9000/gateway") else { fatalError("the fuzz upstream does not parse") }
    return url
}()

/// The proxy's URL building and header forwarding. The input's first line is a request
/// target, every further line a header (`name: value`). Whatever the target, the
/// upstream URL keeps the upstream's origin and stays under its prefix with no dot
/// segments left; the forwarded headers carry no hop-by-hop, `Connection`-named,
/// framing or steering field.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProxy(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    let target = String(lines.first ?? "")
    if let url = upstream.url(for: target) {
        // Bytes, not characters: a combining mark after a slash is one character with it.
        guard url.utf8.starts(with: "http://10.1.2.3:9000/gateway/".utf8) else { fatalError("left the prefix: \(target) -> \(url)") }
        let path = url.utf8.dropFirst("http://10.1.2.3:9000".utf8.count).split(separator: UInt8(ascii: "?"), maxSplits: 1, omittingEmptySubsequences: false)[0]
        for segment in path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false) {
            let dots = Substring(segment).lowercased().replacingOccurrences(of: "%2e", with: ".")
            if dots == "." || dots == ".." { fatalError("a dot segment survived: \(target) -> \(url)") }
        }
        if url.contains("#") { fatalError("a fragment was forwarded: \(target) -> \(url)") }
    } else if target.hasPrefix("/") {
        fatalError("a path was refused: \(target)")
    }
    var headers: [(String, String)] = []
    for line in lines.dropFirst().prefix(64) {
        let pair = line.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
        guard pair.count == 2 else { continue }
        headers.append((String(pair[0]), String(pair[1])))
    }
    let request = MockRequest(method: "POST", target: target.hasPrefix("/") ? target : "/", headers: headers)
    let named = Set((request.headers["connection"] ?? "").split(separator: ",").map { ASCII.lowercased(String(ASCII.trimmed($0))) })
    for (name, value) in ForwardedHeaders.upstream(request) {
        let lower = ASCII.lowercased(name)
        // The proxy's own Via is added, whatever the client's Connection names.
        if lower == "via" {
            if !value.hasSuffix("1.1 accord") { fatalError("Via lost the proxy: \(value)") }
            continue
        }
        if ForwardedHeaders.hopByHop.contains(lower) || named.contains(lower) || ForwardingGate.steeringHeaders.contains(lower)
            || ["host", "content-length", "expect"].contains(lower) {
            fatalError("forwarded '\(name)'")
        }
    }
    let answer = ForwardedHeaders.downstream(headers.map { (name: $0.0, value: $0.1) })
    if answer.contains(where: { ["content-length", "transfer-encoding", "connection"].contains(ASCII.lowercased($0.name)) }) {
        fatalError("passed framing back: \(answer)")
    }
    return 0
}
