import AccordHTTP
import AccordJSON
import AccordMock
import AccordTesting
import Foundation
import Testing

/// The transport's gates as a real `accord serve` applies them over loopback: every
/// framing defect and every header line that is not plain HTTP is refused on every
/// path, the control API's and storage's included, before anything runs; bodies are
/// cut off at their endpoint's limit; slow bodies meet a deadline.
@Suite struct TransportGateTests {
    /// Every control and storage route the server answers, as `METHOD path`.
    static let routes = [
        "GET /__accord/rules", "POST /__accord/rules", "DELETE /__accord/rules", "DELETE /__accord/rules/1",
        "POST /__accord/tokens/expire", "POST /__accord/tokens/invalidate", "POST /__accord/users/10086/ban",
        "DELETE /__accord/users/10086/ban", "POST /__accord/users/10086/force-logout", "GET /__accord/clock", "POST /__accord/clock",
        "POST /__accord/reset", "GET /__accord/requests", "DELETE /__accord/requests", "GET /__accord/report",
        "POST /__accord/state/reset", "GET /__accord/state/signals", "POST /__accord/sessions/s1/scenario", "GET /__accord/contract",
        "POST /__accord/try", "GET /__accord/events", "GET /__accord/ui", "POST /__accord/shutdown",
        "PUT /__storage/0123456789abcdef0123456789abcdef", "GET /__storage/0123456789abcdef0123456789abcdef",
    ]

    /// A head defect: the header lines it adds (after Host and Content-Type) and the body that follows, and the refusal it must get.
    struct Defect: CustomStringConvertible {
        var description: String
        var lines: String
        var body: String
        var status: String
        var error: String
    }

    static let body = #"{"advance":"1d","uid":10086,"reason":"x","name":"banned"}"#
    static let defects: [Defect] = [
        Defect(description: "CL and TE", lines: "Content-Length: \(body.utf8.count)\r\nTransfer-Encoding: chunked\r\n", body: body,
               status: "400", error: "bad_framing"),
        Defect(description: "TE and CL", lines: "Transfer-Encoding: chunked\r\nContent-Length: \(body.utf8.count)\r\n", body: body,
               status: "400", error: "bad_framing"),
        Defect(description: "two CLs", lines: "Content-Length: 0\r\nContent-Length: \(body.utf8.count)\r\n", body: body,
               status: "400", error: "bad_framing"),
        Defect(description: "unknown coding", lines: "Transfer-Encoding: xchunked\r\n", body: body, status: "400", error: "bad_framing"),
        Defect(description: "a declared 99,999,999 bytes", lines: "Content-Length: 99999999\r\n", body: body, status: "413", error: "body_too_large"),
        Defect(description: "a declared 50 MB", lines: "Content-Length: 50000000\r\n", body: body, status: "413", error: "body_too_large"),
        Defect(description: "space before the colon", lines: "Content-Length : 0\r\nContent-Length: \(body.utf8.count)\r\n", body: body,
               status: "400", error: "bad_framing"),
        Defect(description: "tab before the colon", lines: "Transfer-Encoding\t: chunked\r\nContent-Length: \(body.utf8.count)\r\n", body: body,
               status: "400", error: "bad_framing"),
        Defect(description: "NUL in a value", lines: "X-OS: ios\u{0}evil\r\nContent-Length: \(body.utf8.count)\r\n", body: body,
               status: "400", error: "bad_framing"),
        Defect(description: "bare CR in a value", lines: "X-A: a\rb\r\nContent-Length: \(body.utf8.count)\r\n", body: body,
               status: "400", error: "bad_framing"),
        Defect(description: "a folded line", lines: "X-A: a\r\n folded: b\r\nContent-Length: \(body.utf8.count)\r\n", body: body,
               status: "400", error: "bad_framing"),
    ]

    static func send(_ text: String, to port: UInt16) throws -> String {
        let connection = try RawConnection(port: port, timeout: 3)
        connection.send(text)
        return connection.receive()
    }

    static func controlState(_ server: ServerProcess) throws -> (clock: String, rules: Int) {
        let clock = try send("GET /__accord/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", to: server.port)
        let rules = try send("GET /__accord/rules HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n", to: server.port)
        let offset = clock.range(of: #""offset_seconds":-?\d+"#, options: .regularExpression).map { String(clock[$0]) } ?? clock
        return (offset, rules.components(separatedBy: #""id":"#).count - 1)
    }

    @Test func everyControlAndStorageRouteMeetsTheFramingAndSizeGatesFirst() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let rule = #"{"match":{"endpoint":"signal.publish"},"respond":{"code":3008}}"#
        #expect(try Self.send("POST /__accord/rules HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(rule.utf8.count)\r\n"
                              + "Connection: close\r\n\r\n\(rule)", to: server.port).hasPrefix("HTTP/1.1 201"))
        #expect(try Self.controlState(server) == (#""offset_seconds":0"#, 1))
        var failures: [String] = []
        for route in Self.routes {
            let (method, path) = (route.split(separator: " ")[0], route.split(separator: " ")[1])
            for defect in Self.defects {
                let reply = try Self.send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\(defect.lines)\r\n\(defect.body)",
                                          to: server.port)
                let fine = reply.hasPrefix("HTTP/1.1 \(defect.status)") && reply.contains(#""error":"\#(defect.error)""#)
                    && reply.contains("Connection: close") && reply.components(separatedBy: "HTTP/1.1 ").count == 2
                if !fine { failures.append("\(route) with \(defect): \(reply.prefix(120).debugDescription)") }
            }
        }
        #expect(failures.isEmpty, "\(failures.count) of \(Self.routes.count * Self.defects.count):\n\(failures.prefix(10).joined(separator: "\n"))")
        // Nothing ran: no clock moved, no rule or token wiped, and the server did not stop.
        #expect(try Self.controlState(server) == (#""offset_seconds":0"#, 1))
        #expect(try HostileClientTests.answersProbe(server))
    }

    @Test func everyHeaderLineDefectIsRefusedOnAnAPIRouteToo() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let probe = HostileClientTests.probe.replacingOccurrences(of: "\r\n\r\n", with: "\r\n")
        let lines = ["X-B : v", "X-B\t: v", "transfer-encoding : chunked", "X-OS: ios\u{0}evil", "X-A: a\rb", "X-A: a\r\n folded",
                     "X-A: a\r\n\tfolded: b", "X-A: \u{1}", "X-A: a\u{7F}", "X\u{1}B: v", "X(B): v", "X/B: v"]
        for line in lines {
            let reply = try Self.send(probe + line + "\r\n\r\n", to: server.port)
            #expect(reply.hasPrefix("HTTP/1.1 400") && reply.contains(#""error":"bad_framing""#), "\(line.debugDescription) -> \(reply.prefix(200))")
        }
        // What is allowed stays allowed: HTAB and obs-text in a value, every tchar in a name, an empty value.
        for line in ["X-A: a\tb", "X-A: caf\u{E9}", "X-!#$%&'*+-.^_`|~: v", "X-Empty:", "X-Spaces:   v   "] {
            let reply = try Self.send(probe + line + "\r\n\r\n", to: server.port)
            #expect(reply.hasPrefix("HTTP/1.1 200"), "\(line.debugDescription) -> \(reply.prefix(200))")
        }
    }

    @Test func everyControlByteAndWhitespaceAroundOrInAHeaderIsRefused() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let probe = HostileClientTests.probe.replacingOccurrences(of: "\r\n\r\n", with: "\r\n")
        let bytes = Array(0x00...0x20) + [0x7F]
        var accepted: [String] = []
        for byte in bytes.map(UInt8.init) {
            let character = String(decoding: [byte], as: UTF8.self)
            var places = ["before the colon": "X-B\(character): v", "inside the name": "X-\(character)B: v"]
            // In a value, a tab is allowed (RFC 9110 §5.5) and spaces are ordinary; every other control byte is not.
            if byte != 0x09 && byte != 0x20 { places["inside the value"] = "X-B: a\(character)b" }
            for (place, line) in places {
                let reply = try Self.send(probe + line + "\r\n\r\n", to: server.port)
                // Refused by the server (400 bad_framing), or by libmicrohttpd itself (a 400 or a closed connection): never answered.
                if reply.hasPrefix("HTTP/1.1 200") { accepted.append("\(ASCII.hex(byte)) \(place)") }
            }
        }
        #expect(accepted.isEmpty, "accepted: \(accepted.joined(separator: ", "))")
        #expect(try HostileClientTests.answersProbe(server))
    }

    @Test func aChunkedBodyIsCutOffAtItsLimitWith413() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let connection = try RawConnection(port: server.port, timeout: 5)
        connection.send("POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n")
        let chunk = Array("10000\r\n".utf8) + [UInt8](repeating: 0x61, count: 65_536) + Array("\r\n".utf8)
        // 1 MiB is the JSON limit; 18 chunks pass it, and then the client waits for the answer without finishing.
        for _ in 0..<18 { connection.send(chunk) }
        let reply = connection.receive()
        #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply.prefix(200))")
        #expect(reply.contains("Connection: close"))
        #expect(reply.contains(#""limit_bytes":1048576"#))
        #expect(try HostileClientTests.answersProbe(server))
    }

    @Test func aJSONEndpointKeepsTheJSONLimitBesideAnUploadEndpoint() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        // 2 MiB to a JSON endpoint: refused from its Content-Length, not parsed.
        let json = try Self.send("POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: \(2 << 20)\r\n\r\n",
                                 to: server.port)
        #expect(json.hasPrefix("HTTP/1.1 413"), "\(json.prefix(200))")
        #expect(json.contains(#""limit_bytes":1048576"#))
        // The upload endpoint takes its declared maximum (4 MiB files plus room for the text parts).
        let upload = try Self.send("POST /api/v1/uploads/images HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\n"
                                   + "Content-Length: \(5 << 20)\r\n\r\n", to: server.port)
        #expect(upload.hasPrefix("HTTP/1.1 413"), "\(upload.prefix(200))")
        #expect(upload.contains(#""limit_bytes":4259840"#))
    }

    @Test func aBodySlowerThanTheMinimumRateIsClosedAfterItsGraceTime() throws {
        let server = try ServerProcess(arguments: ["--min-body-rate", "100KiB", "--request-timeout", "1h"])
        let connection = try RawConnection(port: server.port, timeout: 1)
        connection.send("POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000000\r\n\r\n")
        let start = ContinuousClock.now
        var closedAfter: Duration?
        // 10 KiB a second, a tenth of the minimum, for up to 20 s: the grace time is 10 s.
        for _ in 0..<80 {
            connection.send([UInt8](repeating: 0x61, count: 2_560))
            if connection.isReadable(within: 250), case (let text, let error) = connection.firstRead(), text.isEmpty, error == 0 {
                closedAfter = ContinuousClock.now - start
                break
            }
        }
        let after = try #require(closedAfter, "the slow body was never cut off")
        #expect(after > .seconds(9), "cut before its grace time: \(after)")
        try server.waitFor(timeout: 5) { _, err in err.contains("whose body came slower than 102400 bytes/s after 10 s") }
    }

    @Test func aBodyThatTricklesIsClosedAtTheRequestDeadline() throws {
        let server = try ServerProcess(arguments: ["--request-timeout", "2s"])
        let trickle = try RawConnection(port: server.port, timeout: 1)
        trickle.send("POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n")
        var closed = false
        // One byte every 200 ms, for up to 20 s: the deadline is 2 s from the head, swept every second.
        for _ in 0..<100 {
            trickle.send("a")
            Thread.sleep(forTimeInterval: 0.2)
            if case (let text, let error) = trickle.firstRead(), text.isEmpty, error == 0 { closed = true; break }
        }
        #expect(closed, "the trickling body was not cut off")
        try server.waitFor(timeout: 10) { _, err in err.contains("whose request took over 2 s") }
        #expect(try HostileClientTests.answersProbe(server))
    }

    @Test func bodiesInFlightStayWithinTheBudgetAndTheirMemoryIsReturned() throws {
        let server = try ServerProcess(arguments: ["--quiet", "--body-budget", "64MiB"])
        let length = (4 << 20) - 1
        let head = "POST /api/v1/uploads/images HTTP/1.1\r\nHost: x\r\nContent-Type: multipart/form-data; boundary=b\r\nContent-Length: \(length)\r\n\r\n"
        let payload = [UInt8](repeating: 0x61, count: length - 1)
        let before = server.residentKiB
        var held: [RawConnection] = []
        var busy = 0
        for _ in 0..<40 {
            let connection = try RawConnection(port: server.port, timeout: 1)
            connection.send(head)
            // A refusal comes at once, from the declared length; an admitted body is sent but its last byte.
            if connection.isReadable(within: 200), case (let text, _) = connection.firstRead(), text.hasPrefix("HTTP/1.1 503") {
                #expect(text.contains("Retry-After: 1") && text.contains(#""error":"server_busy""#), "\(text.prefix(300))")
                busy += 1
            } else {
                connection.send(payload)
                held.append(connection)
            }
        }
        Thread.sleep(forTimeInterval: 0.5)
        let peak = server.residentKiB
        print("bodies in flight: \(held.count) held, \(busy) refused; RSS \(before) KiB before, \(peak) KiB with them")
        #expect(held.count == 16, "a 64 MiB budget holds sixteen 4 MiB bodies")
        #expect(busy == 24)
        #expect(peak - before < 80 << 10, "RSS grew by \(peak - before) KiB")
        held.removeAll()
        Thread.sleep(forTimeInterval: 0.5)
        let after = server.residentKiB
        print("RSS after the bodies went: \(after) KiB")
        #expect(after - before < 16 << 10, "RSS kept \(after - before) KiB after the bodies went")
        #expect(try HostileClientTests.answersProbe(server))
    }

    static func openStream(_ port: UInt16, headers: String = "") throws -> (RawConnection, String) {
        let connection = try RawConnection(port: port, timeout: 2)
        connection.send("GET /__accord/events?replay=0 HTTP/1.1\r\nHost: 127.0.0.1\r\n\(headers)\r\n")
        return (connection, connection.receive { $0.contains("\r\n\r\n") })
    }

    @Test func pagesOfOtherSitesCannotTakeTheEventStreamsAndClosedStreamsFreeTheirSlotsAtOnce() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        // What <img>, <script> and no-cors fetches of another site send: no Origin, but Sec-Fetch-Site.
        for site in ["cross-site", "same-site"] {
            let (_, reply) = try Self.openStream(server.port, headers: "Sec-Fetch-Site: \(site)\r\nSec-Fetch-Mode: no-cors\r\n")
            #expect(reply.hasPrefix("HTTP/1.1 403") && reply.contains("cross_site_request"), "\(site): \(reply.prefix(200))")
        }
        var streams: [RawConnection] = []
        do {   // a scope of its own, so that only `streams` holds the connection
            let (connection, own) = try Self.openStream(server.port, headers: "Sec-Fetch-Site: same-origin\r\n")
            streams.append(connection)
            #expect(own.hasPrefix("HTTP/1.1 200"))
            #expect(own.contains("Content-Security-Policy: default-src 'none'; frame-ancestors 'none'"))
            #expect(own.contains("X-Content-Type-Options: nosniff"))
        }
        streams += try (0..<15).map { _ in try Self.openStream(server.port).0 }
        // A link from another site may still open the console's page: a navigation holds nothing open.
        let page = try Self.send("GET /__accord/ui HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: navigate\r\n"
                                 + "Connection: close\r\n\r\n", to: server.port)
        #expect(page.hasPrefix("HTTP/1.1 200"), "\(page.prefix(120))")
        let image = try Self.send("GET /__accord/ui HTTP/1.1\r\nHost: 127.0.0.1\r\nSec-Fetch-Site: cross-site\r\nSec-Fetch-Mode: no-cors\r\n"
                                  + "Connection: close\r\n\r\n", to: server.port)
        #expect(image.hasPrefix("HTTP/1.1 403"))
        let (_, full) = try Self.openStream(server.port)
        #expect(full.hasPrefix("HTTP/1.1 429"), "\(full.prefix(120))")
        streams.removeAll()   // every reader leaves
        // Freed by the server's sweep (every second), not at the 15 s heartbeat: reopening all sixteen is tried until it works.
        let start = ContinuousClock.now
        var reopened: [RawConnection] = []
        while reopened.count < 16 && ContinuousClock.now - start < .seconds(12) {
            let (connection, reply) = try Self.openStream(server.port)
            if reply.hasPrefix("HTTP/1.1 200") { reopened.append(connection) } else { Thread.sleep(forTimeInterval: 0.1) }
        }
        let waited = ContinuousClock.now - start
        print("sixteen closed event streams freed their slots within \(waited)")
        #expect(reopened.count == 16)
        #expect(waited < .seconds(12), "the slots were held until the heartbeat")
    }
}
