import AccordJSON
import AccordSync
import AccordTesting
import Foundation
import Testing

/// `accord proxy` cannot be steered: the request target never reaches the upstream URL's
/// authority or escapes its path prefix, smuggling primitives stop at the proxy, an
/// upstream's large head is one 502 the journal tells truly, and streams never starve
/// ordinary requests.
@Suite(.serialized) struct ProxySteeringTests {
    static let probe = "GET /api/v1/app/start-config HTTP/1.1\r\nHost: x\r\nX-Device-Id: d\r\nX-OS: ios\r\nX-App-Version: 1.0.0\r\nConnection: close\r\n"

    static func send(_ text: String, to port: UInt16, timeout: Int = 5) throws -> String {
        let connection = try RawConnection(port: port, timeout: timeout)
        connection.send(text)
        return connection.receive()
    }

    @Test func theRequestTargetNeverPicksTheHostPortOrAPathOutsideThePrefix() throws {
        let inside = RawReplyServer(reply: "HTTP/1.1 200 OK\r\nContent-Length: 15\r\n\r\ninternal secret")
        let upstream = try ProxyEndToEndTests.StandIn()
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream.url + "/gateway", "--quiet", "--no-sign"])
        for target in ["@127.0.0.1:\(inside.port)/internal/admin", ":\(inside.port)/x", "http://127.0.0.1:\(inside.port)/x", "*"] {
            let reply = try Self.send("GET \(target) HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer secret\r\nConnection: close\r\n\r\n", to: proxy.port)
            #expect(reply.hasPrefix("HTTP/1.1 400") && reply.contains(#""error":"bad_target""#), "\(target): \(reply.prefix(200))")
        }
        #expect(inside.connections == 0, "the internal server was reached")
        // Dot segments, plain and percent-encoded, stay under the prefix.
        for target in ["/../internal", "/a/../../internal", "/%2e%2e/internal", "/.%2E/internal", "/./internal"] {
            _ = try Self.send("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n", to: proxy.port)
        }
        let paths = upstream.received.map(\.request.path)
        #expect(paths.count == 5)
        #expect(paths.allSatisfy { $0 == "/gateway/internal" }, "\(paths)")
    }

    @Test func smugglingPrimitivesStopAtTheProxy() throws {
        let upstream = try ProxyEndToEndTests.StandIn()
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", upstream.url, "--quiet", "--no-sign"])
        let body = #"{"category":"feature","content":"x"}"#
        let attempts = [
            "transfer-encoding : chunked\r\nContent-Length: \(body.utf8.count)\r\n",
            "Transfer-Encoding\t: chunked\r\nContent-Length: \(body.utf8.count)\r\n",
            "content-length : 0\r\nContent-Length: \(body.utf8.count)\r\n",
            "X-A: a\rb\r\nContent-Length: \(body.utf8.count)\r\n",
            "X-A: a\r\n folded: b\r\nContent-Length: \(body.utf8.count)\r\n",
            "X-A: ios\u{0}evil\r\nContent-Length: \(body.utf8.count)\r\n",
        ]
        for lines in attempts {
            let reply = try Self.send("POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\(lines)\r\n\(body)", to: proxy.port)
            #expect(reply.hasPrefix("HTTP/1.1 400") && reply.contains(#""error":"bad_framing""#), "\(lines.debugDescription): \(reply.prefix(200))")
        }
        #expect(upstream.received.isEmpty, "the upstream saw \(upstream.received.map(\.request.headers))")
    }

    @Test func anUpstreamHeadPastTheLimitIsOne502AndTheJournalSaysSo() throws {
        for kilobytes in [8, 12, 20, 40, 60, 99] {
            let head = (0..<(kilobytes * 1_024 / 64)).map { "X-Big-\($0): \(String(repeating: "h", count: 50))\r\n" }.joined()
            let upstream = RawReplyServer(reply: "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n\(head)Content-Length: 2\r\n\r\n{}")
            let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", "http://127.0.0.1:\(upstream.port)", "--quiet", "--no-sign"])
            let reply = try Self.send(Self.probe + "\r\n", to: proxy.port)
            let journal = try Self.send("GET /__accord/requests HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", to: proxy.port)
            let recorded = journal.range(of: #""status":\d+"#, options: .regularExpression).map { String(journal[$0]) }
            if kilobytes <= 12 {
                #expect(reply.hasPrefix("HTTP/1.1 200") && reply.hasSuffix("{}"), "\(kilobytes) KiB: \(reply.prefix(100))")
                #expect(recorded == #""status":200"#)
            } else {
                #expect(reply.hasPrefix("HTTP/1.1 502") && reply.contains(#""error":"upstream_too_large""#), "\(kilobytes) KiB: \(reply.prefix(300))")
                #expect(recorded == #""status":502"#, "\(kilobytes) KiB: the journal says \(recorded ?? journal)")
            }
        }
    }

    @Test func slowReadersOfStreamsDoNotStarveOtherRequests() throws {
        let upstream = EventStreamServer()
        let proxy = try ServerProcess(command: "proxy", arguments: ["--upstream", "http://127.0.0.1:\(upstream.port)", "--quiet", "--no-sign"])
        let body = #"{"session_id":"ss_01","messages":[{"role":"user","content":"hi"}],"stream":true}"#
        // More streams than the proxy has workers, each read by nobody.
        var readers: [RawConnection] = []
        for _ in 0..<40 {
            let connection = try RawConnection(port: proxy.port, timeout: 5)
            connection.send("POST /api/v1/ai/chat HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer t\r\nContent-Type: application/json\r\n"
                            + "X-Device-Id: d\r\nX-OS: ios\r\nX-App-Version: 1.0.0\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
            readers.append(connection)
        }
        let deadline = ContinuousClock.now + .seconds(8)
        while upstream.streams < 32 && ContinuousClock.now < deadline { Thread.sleep(forTimeInterval: 0.05) }
        #expect(upstream.streams >= 32, "\(upstream.streams) streams reached the upstream: every stream worker is busy")
        let start = ContinuousClock.now
        let reply = try Self.send(Self.probe + "\r\n", to: proxy.port, timeout: 10)
        let waited = ContinuousClock.now - start
        print("an ordinary request among 40 held streams was answered in \(waited)")
        #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply.prefix(200))")
        #expect(waited < .seconds(3))
        readers.removeAll()
    }
}

/// An upstream that answers `/ai/chat` with an event stream of one small event every
/// 100 ms for 15 s, and anything else with `{}` at once.
final class EventStreamServer: Sendable {
    private let listener = LoopbackListener()
    private let opened = Locked(0)

    var port: UInt16 { listener.port }
    /// How many streams it began.
    var streams: Int { opened.withLock { $0 } }

    init() {
        let socket = listener.socket
        let opened = opened
        Thread.detachNewThread {
            while true {
                let client = accept(socket, nil, nil)
                guard client >= 0 else { return }
                Thread.detachNewThread {
                    var buffer = [UInt8](repeating: 0, count: 65_536)
                    var request: [UInt8] = []
                    while !String(decoding: request, as: UTF8.self).contains("\r\n\r\n") {
                        let count = recv(client, &buffer, buffer.count, 0)
                        guard count > 0 else { close(client); return }
                        request += buffer[0..<count]
                    }
                    func write(_ text: String) -> Bool {
                        Array(text.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } > 0
                    }
                    if String(decoding: request, as: UTF8.self).hasPrefix("POST /api/v1/ai/chat") {
                        opened.withLock { $0 += 1 }
                        _ = write("HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\nTransfer-Encoding: chunked\r\n\r\n")
                        for _ in 0..<150 {
                            let event = "data: {\"delta\":\"x\"}\n\n"
                            guard write(String(event.utf8.count, radix: 16) + "\r\n" + event + "\r\n") else { break }
                            Thread.sleep(forTimeInterval: 0.1)
                        }
                        _ = write("0\r\n\r\n")
                    } else {
                        _ = write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}")
                    }
                    close(client)
                }
            }
        }
    }

    deinit {
        listener.close()
    }
}
