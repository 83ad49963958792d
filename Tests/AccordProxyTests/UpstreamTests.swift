@testable import AccordProxy
import AccordHTTP
import AccordJSON
import AccordMock
import Testing

/// What `accord proxy` sends where: the upstream URL, the headers that cross it, and
/// the secrets a recording leaves out.
@Suite struct UpstreamTests {
    @Test func aTargetNeverReachesTheAuthorityOrLeavesThePrefix() throws {
        let upstream = try UpstreamURL(parsing: "http://10.1.2.3/gateway")
        let cases: [(String, String?)] = [
            ("/api/v1/x?a=1", "http://10.1.2.3/gateway/api/v1/x?a=1"),
            ("@127.0.0.1:19091/internal/admin", nil), (":19091/x", nil), ("http://evil.example/x", nil), ("*", nil), ("", nil),
            ("/../internal", "http://10.1.2.3/gateway/internal"), ("/a/b/../../../internal", "http://10.1.2.3/gateway/internal"),
            ("/%2e%2e/internal", "http://10.1.2.3/gateway/internal"), ("/%2E./x/.%2e/y", "http://10.1.2.3/gateway/y"),
            ("/a/./b/", "http://10.1.2.3/gateway/a/b/"), ("/a/..", "http://10.1.2.3/gateway/"), ("/a/b/.", "http://10.1.2.3/gateway/a/b/"),
            ("//evil.example/x", "http://10.1.2.3/gateway//evil.example/x"), ("/x#frag", "http://10.1.2.3/gateway/x"),
            ("/x/../y?next=/../z", "http://10.1.2.3/gateway/y?next=/../z"),
            ("/.../x", "http://10.1.2.3/gateway/.../x"), ("/%2e%2e%2e/x", "http://10.1.2.3/gateway/%2e%2e%2e/x"),
            ("/a/b/%2E%2e", "http://10.1.2.3/gateway/a/"), ("/a.b/c.json", "http://10.1.2.3/gateway/a.b/c.json"),
            ("/%41/%2/x%2e", "http://10.1.2.3/gateway/%41/%2/x%2e"), ("/a/%2e%2", "http://10.1.2.3/gateway/a/%2e%2"),
            // A combining mark after a slash is kept, with or without dot segments (split on bytes, not characters).
            ("/\u{0341}a/b", "http://10.1.2.3/gateway/\u{0341}a/b"), ("/x/../\u{0341}y", "http://10.1.2.3/gateway/\u{0341}y"),
        ]
        for (target, expected) in cases {
            #expect(upstream.url(for: target) == expected, "\(target)")
        }
    }

    @Test func upstreamURLsAreCheckedAtStart() throws {
        let plain = try UpstreamURL(parsing: "http://127.0.0.1:9000")
        #expect(plain.url(for: "/api/v1/signals?limit=20") == "http://127.0.0.1:9000/api/v1/signals?limit=20")
        let prefixed = try UpstreamURL(parsing: "HTTPS://Staging.example.com/gateway/")
        #expect(prefixed.url(for: "/api/v1/users/me") == "https://Staging.example.com/gateway/api/v1/users/me")
        #expect(try UpstreamURL(parsing: "http://[::1]:8080").origin == "http://[::1]:8080")
        let refused: [(String, String)] = [
            ("staging.example.com", "'staging.example.com' is not a URL; give one such as https://staging.example.com or http://127.0.0.1:9000"),
            ("ftp://127.0.0.1", "'ftp://127.0.0.1': the upstream must be http:// or https://, found ftp://"),
            ("http://", "'http://' names no host"),
            ("https://user:secret@example.com", "'https://user:secret@example.com': credentials in the URL are not forwarded; send them as headers from the app"),
            ("http://example.com/?a=1", "'http://example.com/?a=1': an upstream URL takes no query or fragment"),
            ("http://example.com:70000", "'http://example.com:70000': port 70000 is outside 1–65535"),
        ]
        for (text, message) in refused {
            #expect(throws: UpstreamURL.Invalid.self, "\(text)") { try UpstreamURL(parsing: text) }
            do { _ = try UpstreamURL(parsing: text) } catch { #expect(error.description == message) }
        }
    }

    @Test func hopByHopHeadersStopAtTheProxy() {
        let request = MockRequest(method: "POST", target: "/api/v1/signals", headers: [
            ("Host", "app.example"), ("Connection", "keep-alive, X-Secret-Hop"), ("Keep-Alive", "timeout=5"), ("X-Secret-Hop", "1"),
            ("Transfer-Encoding", "chunked"), ("TE", "trailers"), ("Content-Length", "12"), ("Accept-Encoding", "gzip"),
            ("X-Accord-Session", "A"), ("X-Accord-Inject", "1008"), ("Authorization", "Bearer at_1"), ("X-Sign", "abc"),
            ("Content-Type", "application/json"), ("Via", "1.1 cdn"),
        ])
        let sent = ForwardedHeaders.upstream(request)
        #expect(sent.map(\.name) == ["authorization", "x-sign", "content-type", "via", "accept"])
        #expect(sent.first { $0.name == "via" }?.value == "1.1 cdn, 1.1 accord")
        #expect(sent.last?.value == "") // suppresses libcurl's own Accept
        let answered = ForwardedHeaders.downstream([
            ("Server", "nginx"), ("Content-Type", "application/json"), ("Content-Length", "95"), ("Connection", "keep-alive, X-Internal"),
            ("X-Internal", "1"), ("Transfer-Encoding", "chunked"), ("Set-Cookie", "a=1"), ("Set-Cookie", "b=2"),
        ])
        #expect(answered.map(\.name) == ["Server", "Content-Type", "Set-Cookie", "Set-Cookie"])
    }

    @Test func recordingsScrubTokensAndPhones() {
        let login = Scrubber(issuesTokens: true, requestBody: .object([.init("phone", .string("13912345678"))]))
        let scrubbed = login.scrub(.object([
            .init("access_token", .string("at_live")), .init("access_expires_in", .int(7200)), .init("im_token", .string("im_9")),
            .init("user", .object([.init("phone", .string("13912345678")), .init("backup", .string("+8613700001111")),
                                   .init("note", .string("{{not a template}}")), .init("uid", .int(10086))])),
        ]), at: [])
        #expect(JSONWriter.string(scrubbed) == #"{"access_token":"{{issued.access_token}}","access_expires_in":"{{issued.access_expires_in}}","#
                + #""im_token":"{{uuid}}","user":{"phone":"{{request.body.phone}}","backup":"+8613700000000","note":"{ {not a template}}","uid":10086}}"#)
        // Elsewhere a token is not one the mock issues.
        let other = Scrubber(issuesTokens: false, requestBody: nil).scrub(.object([.init("access_token", .string("x"))]), at: [])
        #expect(JSONWriter.string(other) == #"{"access_token":"{{uuid}}"}"#)
        #expect(!Scrubber.isPhone("12345678901"))
        #expect(!Scrubber.isPhone("1391234567"))
    }
}
