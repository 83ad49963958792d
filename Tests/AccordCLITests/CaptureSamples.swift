import AccordJSON
import AccordMock
import AccordMockState
import AccordTesting
import Foundation

/// One short session of an app, answered by the in-process mock and written as each
/// capturing tool exports HAR: Chrome's and Safari's web inspectors, Charles, Proxyman.
///
/// | entry | what | expected |
/// |---|---|---|
/// | 1 | `GET /signals/inbox?filter=flash`, signed | passes |
/// | 2 | `POST /signals` with empty `content` | `/body/content` |
/// | 3 | `GET /users/me`, answer with `nickname` renamed | `/data/nickname`, `/data/nick_name` |
/// | 4 | a font from another host | skipped |
/// | 5 | `GET /app/start-config` answered by a redirect | request passes, answer not checked |
/// | 6 | `GET /subscriptions/products` answered by a gateway's HTML 502 | not JSON |
/// | 7 | entry 1 sent again with its nonce | nonce replay (1004) |
struct CaptureSamples {
    /// A tool's way of writing HAR.
    enum Tool: String, CaseIterable {
        case chrome, safari, charles, proxyman
    }

    struct Exchange {
        var method: String
        var url: String
        var headers: [(String, String)]
        var body: String?
        var status: Int
        var contentType: String
        var responseBody: String
        var redirect: String?
        var time: Int64
    }

    let exchanges: [Exchange]
    let start: Int64

    init() throws {
        var fixture = try EngineFixture(fixturesIn: Repository.mocks)
        start = fixture.now
        var exchanges: [Exchange] = []
        func exchange(_ method: String, _ target: String, body: String? = nil, host: String = "https://api.example.com", at offset: Int64) throws(StorageError) -> Exchange {
            let request = fixture.signed(method, target, body: body)
            let response = fixture.handle(request)
            return Exchange(method: method, url: host + target, headers: request.headers.map { ($0.name, $0.value) }, body: body,
                            status: response.status, contentType: response.header("Content-Type") ?? "application/json",
                            responseBody: response.text, time: fixture.now + offset)
        }
        exchanges.append(try exchange("GET", "/api/v1/signals/inbox?filter=flash", at: 0))
        let empty = #"{"content":"","is_flash":false}"#
        exchanges.append(try exchange("POST", "/api/v1/signals", body: empty, at: 1))
        var me = try exchange("GET", "/api/v1/users/me", at: 2)
        me.responseBody = me.responseBody.replacingOccurrences(of: "\"nickname\"", with: "\"nick_name\"")
        exchanges.append(me)
        exchanges.append(Exchange(method: "GET", url: "https://fonts.example.net/css2?family=Inter", headers: [("accept", "text/css")], body: nil,
                                  status: 200, contentType: "text/css", responseBody: "@font-face{}", time: start + 3))
        var redirected = try exchange("GET", "/api/v1/app/start-config", host: "http://api.example.com", at: 4)
        (redirected.status, redirected.contentType, redirected.responseBody) = (301, "text/html", "")
        redirected.redirect = "https://api.example.com/api/v1/app/start-config"
        exchanges.append(redirected)
        var gateway = try exchange("GET", "/api/v1/subscriptions/products", at: 5)
        (gateway.status, gateway.contentType, gateway.responseBody) = (502, "text/html", "<html><body>502 Bad Gateway</body></html>")
        exchanges.append(gateway)
        var replay = exchanges[0]
        replay.time = start + 6
        exchanges.append(replay)
        self.exchanges = exchanges
    }

    /// The session as `tool` exports it.
    func har(_ tool: Tool) -> String {
        let creator: JSONValue = switch tool {
        case .chrome: .object([.init("name", .string("WebInspector")), .init("version", .string("537.36"))])
        case .safari: .object([.init("name", .string("WebKit Web Inspector")), .init("version", .string("26.1"))])
        case .charles: .object([.init("name", .string("Charles Proxy")), .init("version", .string("5.0"))])
        case .proxyman: .object([.init("name", .string("Proxyman")), .init("version", .string("5.10.0"))])
        }
        let entries = exchanges.map { entry(for: $0, tool: tool) }
        let log: JSONValue = .object([.init("version", .string("1.2")), .init("creator", creator), .init("pages", .array([])),
                                      .init("entries", .array(entries))])
        return JSONWriter.string(.object([.init("log", log)]))
    }

    private func entry(for exchange: Exchange, tool: Tool) -> JSONValue {
        let components = URLComponents(string: exchange.url)!
        var headers = exchange.headers
        switch tool {
        case .chrome:
            // HTTP/2 as Chrome shows it: pseudo-headers first, names in lower case.
            let path = components.percentEncodedPath + (components.percentEncodedQuery.map { "?" + $0 } ?? "")
            headers = [(":authority", components.host ?? ""), (":method", exchange.method), (":path", path), (":scheme", "https")] + headers
        case .safari, .charles, .proxyman:
            headers = [("Host", components.host ?? "")] + headers.map { (Self.capitalized($0.0), $0.1) }
        }
        var request: [JSONValue.Member] = [
            .init("method", .string(exchange.method)), .init("url", .string(exchange.url)),
            .init("httpVersion", .string(tool == .chrome ? "h2" : "HTTP/1.1")),
            .init("headers", pairs(headers)), .init("cookies", .array([])),
            .init("queryString", pairs((components.queryItems ?? []).map { ($0.name, $0.value ?? "") })),
            .init("headersSize", .int(-1)), .init("bodySize", .int(exchange.body?.utf8.count ?? 0)),
        ]
        if let body = exchange.body {
            request.append(.init("postData", .object([.init("mimeType", .string("application/json")), .init("text", .string(body))])))
        }
        var content: [JSONValue.Member] = [.init("size", .int(exchange.responseBody.utf8.count)), .init("mimeType", .string(exchange.contentType))]
        if tool == .charles {
            content += [.init("text", .string(Data(exchange.responseBody.utf8).base64EncodedString())), .init("encoding", .string("base64"))]
        } else {
            content.append(.init("text", .string(exchange.responseBody)))
        }
        let response: JSONValue = .object([
            .init("status", .int(exchange.status)), .init("statusText", .string("")), .init("httpVersion", .string("HTTP/1.1")),
            .init("headers", pairs([("Content-Type", exchange.contentType)])), .init("cookies", .array([])),
            .init("content", .object(content)), .init("redirectURL", .string(exchange.redirect ?? "")),
            .init("headersSize", .int(-1)), .init("bodySize", .int(exchange.responseBody.utf8.count)),
        ])
        var members: [JSONValue.Member] = [
            .init("startedDateTime", .string(Self.time(exchange.time, tool: tool))), .init("time", .double(12.5)),
            .init("request", .object(request)), .init("response", response), .init("cache", .object([])),
            .init("timings", .object([.init("send", .int(0)), .init("wait", .int(10)), .init("receive", .int(2))])),
        ]
        switch tool {
        case .chrome: members += [.init("_initiator", .object([.init("type", .string("script"))])), .init("_priority", .string("High")),
                                  .init("_resourceType", .string("fetch"))]
        case .safari: members.append(.init("_fetchType", .string("Network Load")))
        case .charles: members.append(.init("serverIPAddress", .string("203.0.113.7")))
        case .proxyman: members.append(.init("comment", .string("")))
        }
        return .object(members)
    }

    private func pairs(_ items: [(String, String)]) -> JSONValue {
        .array(items.map { .object([.init("name", .string($0.0)), .init("value", .string($0.1))]) })
    }

    /// `x-app-key` → `X-App-Key`.
    private static func capitalized(_ name: String) -> String {
        name.split(separator: "-").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: "-")
    }

    /// Chrome and Safari write UTC with milliseconds; Charles and Proxyman the local zone (here +08:00).
    private static func time(_ unix: Int64, tool: Tool) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if tool == .charles || tool == .proxyman { formatter.timeZone = TimeZone(secondsFromGMT: 8 * 3_600) }
        return formatter.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }
}
