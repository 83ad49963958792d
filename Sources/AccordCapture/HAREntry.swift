import AccordContract
import AccordHTTP
import AccordFlowConformance
import AccordJSON
import Foundation

/// One HAR 1.2 entry as a captured exchange: the URL (or HTTP/2's `:authority` and
/// `:path`), the headers without HTTP/2 pseudo-headers, `postData.text` (base64 when
/// the exporter says so), and the response's status, type and content (`text`, base64
/// when `encoding` says so).
enum HAREntry {
    static func exchange(_ entry: JSONValue, origin: String) throws(CaptureError) -> CapturedExchange {
        guard let request = entry["request"], case .string(let method)? = request["method"] else {
            throw CaptureError("\(origin): not a HAR entry: no 'request.method'")
        }
        var headers: [(name: String, value: String)] = []
        var authority: String?
        var pseudoPath: String?
        for (name, value) in pairs(request["headers"]) {
            switch name.lowercased() {
            case ":authority": authority = value
            case ":path": pseudoPath = value
            case "host": authority = authority ?? value; headers.append((name, value))
            default: if !name.hasPrefix(":") { headers.append((name, value)) }
            }
        }
        var host: String?
        var target: String
        if case .string(let url)? = request["url"], let components = URLComponents(string: url), components.host != nil || pseudoPath == nil {
            host = components.host
            target = components.percentEncodedPath.isEmpty ? "/" : components.percentEncodedPath
            if let query = components.percentEncodedQuery, !query.isEmpty {
                target += "?" + query
            } else {
                let query = pairs(request["queryString"])
                if !query.isEmpty {
                    target += "?" + query.map { PercentEncoding.component($0.0) + "=" + PercentEncoding.component($0.1) }.joined(separator: "&")
                }
            }
        } else if let pseudoPath {
            target = pseudoPath
        } else {
            throw CaptureError("\(origin): not a HAR entry: no 'request.url'")
        }
        if host == nil, let authority { host = String(authority.prefix { $0 != ":" }) }
        var body: [UInt8] = []
        var bodyLost = false
        if let postData = request["postData"] {
            body = try content(postData, origin: origin, what: "request.postData")
            if case .string(let type)? = postData["mimeType"], !type.isEmpty,
               !headers.contains(where: { $0.name.lowercased() == "content-type" }) {
                headers.append(("Content-Type", type))
            }
            let type = headers.first { $0.name.lowercased() == "content-type" }?.value ?? ""
            if ASCII.lowercased(type).hasPrefix("multipart/"), case .string(let text)? = postData["text"], postData["encoding"] == nil {
                (body, bodyLost) = multipartBytes(text) ?? (body, false)
            }
        }
        var time: Int64?, sent: Int64?
        if case .string(let started)? = entry["startedDateTime"] {
            time = RFC3339.unixSeconds(started)
            sent = RFC3339.unixMilliseconds(started).map { $0 * 1_000 }
        }
        var exchange = CapturedExchange(origin: origin, time: time, method: method, host: host, target: target, headers: headers, body: body,
                                        omittedBodyBytes: nil, response: try response(entry["response"], origin: origin), recordedVerdict: nil)
        exchange.bodyLost = bodyLost
        noteFlowFacts(of: entry, sent: sent, in: &exchange)
        return exchange
    }

    /// What the flow rules read: when the answer came (HAR's `time` is the whole exchange,
    /// in milliseconds), the token's tag, and the session a request names.
    private static func noteFlowFacts(of entry: JSONValue, sent: Int64?, in exchange: inout CapturedExchange) {
        let duration: Int64 = switch entry["time"] {
        case .int(let value)? where value >= 0 && value < 1 << 40: Int64(value) * 1_000
        case .double(let value)? where value.isFinite && value >= 0 && value < 1e12: Int64((value * 1_000).rounded())
        default: 0
        }
        (exchange.sentMicroseconds, exchange.answeredMicroseconds) = (sent, sent.map { $0 + duration })
        let headers = exchange.headers
        exchange.tokenTag = headers.first { $0.name.lowercased() == "authorization" }.flatMap { TokenTag.of(authorization: $0.value) }
        if let named = headers.first(where: { $0.name.lowercased() == "x-accord-session" }) { exchange.session = named.value }
        // A browser records a request that got no answer (reset, refused, timed out) with status 0.
        if case .int(0)? = entry["response"]?["status"] { exchange.fault = "no-answer" }
    }

    /// A multipart body with a file that a HAR tool stored as text, as the bytes sent: text
    /// whose every character is at most U+00FF is Latin-1, one character a byte (the only
    /// way text keeps arbitrary bytes); text holding U+FFFD was decoded as UTF-8 with the
    /// file's bytes replaced, and is lost. Nil for a body that needs neither.
    private static func multipartBytes(_ text: String) -> (bytes: [UInt8], lost: Bool)? {
        guard text.contains("filename=") else { return nil }
        let scalars = text.unicodeScalars
        if scalars.contains("\u{FFFD}") { return (Array(text.utf8), true) }
        guard scalars.contains(where: { $0.value >= 0x80 }), scalars.allSatisfy({ $0.value <= 0xFF }) else { return nil }
        return (scalars.map { UInt8($0.value) }, false)
    }

    private static func response(_ response: JSONValue?, origin: String) throws(CaptureError) -> CapturedExchange.Response? {
        // Browsers write status 0 for a request that got no answer (blocked, cancelled).
        guard let response, case .int(let status)? = response["status"], status > 0 else { return nil }
        var contentType = pairs(response["headers"]).first { $0.0.lowercased() == "content-type" }?.1
        var body: [UInt8]?
        if let content = response["content"] {
            if case .string(let type)? = content["mimeType"], !type.isEmpty { contentType = contentType ?? type }
            if content["text"] != nil { body = try self.content(content, origin: origin, what: "response.content") }
        }
        var redirect: String?
        if case .string(let url)? = response["redirectURL"], !url.isEmpty { redirect = url }
        return .init(status: status, contentType: contentType, body: body, code: nil, redirect: redirect)
    }

    /// `text`, decoded from base64 when `encoding` says so.
    private static func content(_ value: JSONValue, origin: String, what: String) throws(CaptureError) -> [UInt8] {
        guard case .string(let text)? = value["text"] else { return [] }
        guard case .string(let encoding)? = value["encoding"], encoding.lowercased() == "base64" else { return Array(text.utf8) }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            throw CaptureError("\(origin): \(what).text says base64 but is not")
        }
        return [UInt8](data)
    }

    /// `[{name, value}]` as pairs, skipping malformed items.
    private static func pairs(_ value: JSONValue?) -> [(String, String)] {
        guard case .array(let items)? = value else { return [] }
        return items.compactMap { item in
            guard case .string(let name)? = item["name"], case .string(let value)? = item["value"] else { return nil }
            return (name, value)
        }
    }
}
