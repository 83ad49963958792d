import AccordContract
import AccordJSON
import AccordTesting
import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The requests of issue 8, sent as an attacker or a careless tester would, against
/// the real server over loopback: each is refused cleanly and the server keeps
/// answering everyone else.
@Suite struct HostileClientTests {
    /// An exempt request that needs no signature: proof that the server still answers.
    static let probe = "GET /api/v1/app/start-config HTTP/1.1\r\nHost: x\r\nX-Device-Id: d\r\nX-OS: ios\r\nX-App-Version: 1.0.0\r\nConnection: close\r\n\r\n"

    static func answersProbe(_ server: ServerProcess, from source: String = "127.0.0.1") throws -> Bool {
        let connection = try RawConnection(port: server.port, from: source)
        connection.send(probe)
        return connection.receive().hasPrefix("HTTP/1.1 200")
    }

    static func clockOffset(_ server: ServerProcess) throws -> String {
        let connection = try RawConnection(port: server.port)
        connection.send("GET /__accord/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let reply = connection.receive()
        return reply.range(of: #""offset_seconds":-?\d+"#, options: .regularExpression).map { String(reply[$0]) } ?? reply
    }

    @Test func smuggledRequestsNeverRun() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let hidden = "POST /__accord/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 17\r\n\r\n{\"advance\":\"1d\"}"
        let attempts = [
            // Content-Length and Transfer-Encoding: a front proxy reads one, the server the other.
            "POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n\(hidden)",
            "POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Length: 5\r\n\r\n0\r\n\r\n\(hidden)",
            // Two different lengths.
            "POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\nContent-Length: \(hidden.utf8.count)\r\n\r\n\(hidden)",
            // A coding the server does not know, and a disguised one.
            "POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: xchunked\r\n\r\n\(hidden)",
            "POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n\(hidden)",
        ]
        for attempt in attempts {
            let connection = try RawConnection(port: server.port)
            connection.send(attempt)
            let reply = connection.receive()   // until the server closes
            #expect(reply.hasPrefix("HTTP/1.1 400"), "\(attempt.prefix(90).debugDescription) -> \(reply.prefix(60))")
            #expect(reply.contains("Connection: close"))
            #expect(reply.contains(#""error":"bad_framing""#))
            #expect(reply.components(separatedBy: "HTTP/1.1 ").count == 2, "one answer only: \(reply)")
        }
        #expect(try Self.clockOffset(server) == #""offset_seconds":0"#)
    }

    @Test func aHeadOfSixKiBIsServedAndOneBeyondThePoolIsRefused() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        func send(padding: Int) throws -> String {
            let connection = try RawConnection(port: server.port)
            let head = Self.probe.replacingOccurrences(of: "Connection: close\r\n", with: "Connection: close\r\nX-Padding: \(String(repeating: "p", count: padding))\r\n")
            connection.send(head)
            return connection.receive()
        }
        #expect(try send(padding: 6 * 1024).hasPrefix("HTTP/1.1 200"))
        let refused = try send(padding: 9 * 1024)
        #expect(refused.hasPrefix("HTTP/1.1 431") || refused.hasPrefix("HTTP/1.1 414"), "\(refused.prefix(80))")
        #expect(try Self.answersProbe(server))
    }

    /// libmicrohttpd files every query parameter in the connection's 8 KiB pool: 111 of
    /// them are answered, the 112th closes the connection without an answer (the pool has
    /// no room left for the library's own 431). docs/serve.md states the limit.
    @Test func aHundredAndElevenQueryParametersAreAnsweredAndOneMoreIsNot() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        func send(parameters: Int) throws -> String {
            let connection = try RawConnection(port: server.port)
            let query = (0..<parameters).map { "q\($0)=1" }.joined(separator: "&")
            connection.send("GET /api/v1/app/start-config?\(query) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            return connection.receive()
        }
        #expect(try send(parameters: 111).hasPrefix("HTTP/1.1 400"))
        #expect(try send(parameters: 112) == "")
        #expect(try Self.answersProbe(server))
    }

    @Test func anOversizedBodyAnnouncedWithExpectGets413WithoutContinue() throws {
        let server = try ServerProcess(arguments: ["--quiet", "--max-body", "1KiB"])
        let connection = try RawConnection(port: server.port)
        connection.send("POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 5000000\r\nExpect: 100-continue\r\n\r\n")
        let reply = connection.receive()
        #expect(reply.hasPrefix("HTTP/1.1 413"), "\(reply)")
        #expect(!reply.contains("100 Continue"))
        #expect(reply.contains(#""error":"body_too_large""#))
        #expect(try Self.answersProbe(server))
    }

    /// The signing rule sorts every top-level member of a JSON body, and it runs before the
    /// signature is known to be good: a body of a megabyte with 87,000 members in reverse
    /// order is answered (a wrong signature, 1001) within the connection's 5 s read, as is
    /// the next client. An insertion sort took 85 s of one core over these members.
    @Test func aBodyOfEightySevenThousandMembersIsSortedForItsSignatureAndAnswered() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let count = 87_000
        let body = "{" + (0..<count).map { "\"k\(count - $0 + 100_000)\":1" }.joined(separator: ",") + "}"
        #expect(body.utf8.count < 1 << 20)
        let connection = try RawConnection(port: server.port)
        connection.send("POST /api/v1/auth/login/phone HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + "X-App-Key: dev_app_key\r\nX-Timestamp: \(Int(Date().timeIntervalSince1970))\r\nX-Nonce: n-\(UInt64.random(in: 0...UInt64.max))\r\n"
            + "X-Sign: \(String(repeating: "0", count: 32))\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        let reply = connection.receive()
        #expect(reply.hasPrefix("HTTP/1.1 200"), "\(reply.prefix(80))")
        #expect(reply.contains(#""code":1001"#) && reply.contains("X-Sign does not match the request"), "\(reply.prefix(300))")
        #expect(try Self.answersProbe(server))
    }

    /// A signed body of a megabyte that breaks its schema at every member (87,000 unknown
    /// ones) is answered with the first hundred violations and `violations_limit`, and its
    /// journal entry keeps a hundred problems. Before, the answer was 13.9 MB and each such
    /// request left about 30 MB in the journal (40 of them: 1.3 GB of RSS).
    @Test func aBodyBreakingItsSchemaEightySevenThousandTimesListsTheFirstHundred() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let target = "/api/v1/auth/login/phone"
        let body = #"{"phone":"13800138000","code":"123456","device_info":{"device_id":"D-1","os":"ios","os_version":"26.1","app_version":"1.2.0","model":"x"},"#
            + (0..<87_000).map { "\"k\(100_000 + $0)\":1" }.joined(separator: ",") + "}"
        #expect(body.utf8.count < 1 << 20)
        let headers = TestSigner.headers(target: target, body: body, timestamp: Int64(Date().timeIntervalSince1970), nonce: "n-\(UInt64.random(in: 0...UInt64.max))")
        let connection = try RawConnection(port: server.port)
        connection.send("POST \(target) HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
            + (headers + TestSigner.serviceHeaders).map { "\($0.0): \($0.1)\r\n" }.joined()
            + "Content-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)")
        let reply = connection.receive()
        #expect(reply.hasPrefix("HTTP/1.1 400"), "\(reply.prefix(80))")
        let answer = try JSONReader.read(Array(reply[(reply.range(of: "\r\n\r\n")?.upperBound ?? reply.endIndex)...].utf8))
        #expect(answer["msg"] == .string("100 or more problems in the request (the first 100 are listed)"))
        #expect(answer.value(at: "/data/violations_limit") == .int(100))
        guard case .array(let violations)? = answer.value(at: "/data/violations") else {
            Issue.record("no violations in \(reply.prefix(300))")
            return
        }
        #expect(violations.count == 100)
        #expect(violations.first?["pointer"] == .string("/body/k100000"))
        #expect(violations.last?["pointer"] == .string("/body/k100099"))

        let journal = try RawConnection(port: server.port)
        journal.send("GET /__accord/requests?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let listed = journal.receive()
        let entries = try JSONReader.read(Array(listed[(listed.range(of: "\r\n\r\n")?.upperBound ?? listed.endIndex)...].utf8))
        guard case .array(let problems)? = entries.value(at: "/requests/0/problems") else {
            Issue.record("no problems in \(listed.prefix(300))")
            return
        }
        #expect(problems.count == 100)
    }

    @Test func slowClientsCannotLockOutOthers() throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        // More than libmicrohttpd's old limit of about 1,020 connections, each sending a header byte at a time.
        var slow: [RawConnection] = []
        for _ in 0..<1_100 {
            let connection = try RawConnection(port: server.port)
            connection.send("GET /api/v1/app/start-config HTTP/1.1\r\nX-Slow: ")
            slow.append(connection)
        }
        for round in 0..<3 {
            for connection in slow { connection.send("a") }
            let start = ContinuousClock.now
            #expect(try Self.answersProbe(server), "round \(round)")
            print("a normal client among 1,100 slow ones was answered in \(ContinuousClock.now - start)")
        }
        slow.removeAll()   // closed before the server is stopped
    }

    @Test func aConnectionThatTricklesItsHeadIsClosedAtTheDeadline() throws {
        let server = try ServerProcess(arguments: ["--header-timeout", "1s"])
        let trickle = try RawConnection(port: server.port, timeout: 1)
        trickle.send("GET /api/v1/app/start-config HTTP/1.1\r\n")
        var closed = false
        // About one byte a second, for up to 30 s: the deadline is 1 s, swept every second (slower on a loaded machine).
        for _ in 0..<30 {
            trickle.send("X")
            if case (let text, let error) = trickle.firstRead(), text.isEmpty, error == 0 { closed = true; break }
        }
        #expect(closed, "the trickling connection was not closed")
        try server.waitFor(timeout: 10) { _, err in err.contains("that sent no complete request head within 1 s") }
        #expect(server.standardError.contains("accord serve: closed 1 connection(s) that sent no complete request head within 1 s"))
        #expect(try Self.answersProbe(server))
    }

    @Test func oneAddressGetsItsShareOfConnectionsOnly() throws {
        let server = try ServerProcess(arguments: ["--quiet", "--max-connections", "32", "--max-connections-per-ip", "8"])
        let held = try (0..<8).map { _ in try RawConnection(port: server.port) }
        for connection in held { connection.send("GET /") }
        Thread.sleep(forTimeInterval: 0.2)
        let ninth = try RawConnection(port: server.port, timeout: 2)
        ninth.send(Self.probe)
        #expect(ninth.receive().isEmpty, "the ninth connection from 127.0.0.1 was answered")
        #expect(try Self.answersProbe(server, from: "127.0.0.2"))
        try server.waitFor(timeout: 3) { _, err in err.contains("libmicrohttpd") }
        #expect(server.standardError.contains("accord serve: libmicrohttpd: "))
    }

    /// ThreadSanitizer's own runtime cannot start under a 4 KiB file-size limit (it
    /// dies with SIGBUS before `main`), so `scripts/test --tsan` leaves this one out.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "ThreadSanitizer cannot run under ulimit -f"))
    func recordingOnAFullDiskKeepsWholeLinesAndSaysSo() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("accord-record-\(UUID().uuidString).jsonl")
        defer { try? FileManager.default.removeItem(at: file) }
        let server = try ServerProcess(arguments: ["--quiet", "--record", file.path], fileSizeLimitKiB: 4)
        for _ in 0..<60 { #expect(try Self.answersProbe(server)) }
        let connection = try RawConnection(port: server.port)
        connection.send("GET /__accord/requests?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let status = connection.receive()
        #expect(status.contains(#""recording":{"file":"\#(file.path)""#))
        #expect(status.contains(#""error":"writing to \#(file.path) failed: File too large""#))
        let bytes = try Data(contentsOf: file)
        #expect(bytes.count <= 4_096)
        #expect(bytes.last == 0x0A)
        let lines = bytes.split(separator: 0x0A)
        #expect(lines.allSatisfy { (try? JSONReader.read(Array($0))) != nil })
        #expect(server.standardError.components(separatedBy: "--record:").count == 2, "reported once: \(server.standardError)")
        #expect(try Self.answersProbe(server))
        // Space comes back: recording resumes, and the status no longer shows an error (the lost lines stay counted).
        try FileHandle(forWritingTo: file).truncate(atOffset: 0)
        #expect(try Self.answersProbe(server))
        let resumed = try RawConnection(port: server.port)
        resumed.send("GET /__accord/requests?limit=1 HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
        let after = resumed.receive()
        #expect(after.contains(#""recording":{"file":"\#(file.path)""#))
        #expect(!after.contains(#""error":"writing to"#), "\(after.suffix(300))")
        #expect(after.range(of: #""lost":[1-9]"#, options: .regularExpression) != nil)
    }

    @Test func hotReloadNeverReadsAHalfWrittenFile() throws {
        let mocks = FileManager.default.temporaryDirectory.appendingPathComponent("accord-settle-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: mocks, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: mocks) }
        let server = try ServerProcess(arguments: ["--quiet"], mocks: mocks.path)
        // One flow mapping on one line: any cut of it is a YAML error.
        let note = String(repeating: "慢慢写 ", count: 400)
        let text = "signal.quota: [{name: q, default: true, description: '\(note)', data: {daily_limit: 20, used: 3, resets_at: '2026-12-01T00:00:00Z'}}]\n"
        let file = mocks.appendingPathComponent("quota.yaml")
        try Data().write(to: file)
        let handle = try FileHandle(forWritingTo: file)
        let bytes = Array(text.utf8)
        let piece = bytes.count / 12 + 1
        for start in stride(from: 0, to: bytes.count, by: piece) {
            handle.write(Data(bytes[start..<min(start + piece, bytes.count)]))
            Thread.sleep(forTimeInterval: 0.12)
        }
        try handle.close()
        try server.waitFor(timeout: 5) { out, _ in out.contains("accord serve: reloaded: 66 endpoints, 1 fixtures") }
        #expect(!server.standardError.contains("error"), "read while being written: \(server.standardError)")
        #expect(server.standardOutput.components(separatedBy: "reloaded").count == 2)
    }

    @Test func afterEveryHostileRequestTheServerStillAnswersWithFlatMemory() throws {
        let server = try ServerProcess(arguments: ["--quiet", "--max-body", "64KiB"])
        let hostile: [[UInt8]] = [
            Array("GET /\r\n".utf8),                                                                      // HTTP/0.9
            Array(("GET /" + String(repeating: "a", count: 1_000_000) + " HTTP/1.1\r\nHost: x\r\n\r\n").utf8),   // 1 MB request line
            Array(("GET / HTTP/1.1\r\nHost: x\r\n" + (0..<10_000).map { "X-H\($0): v\r\n" }.joined() + "\r\n").utf8),
            Array((Self.probe.replacingOccurrences(of: "Connection: close\r\n", with: "") + Self.probe).utf8),   // pipelined
            Array("POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nfffffffffffffffffff\r\n".utf8),
            Array("POST /api/v1/feedback HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n-1\r\n".utf8),
            Array("GET /api/v1/app/start-config HTTP/1.1\r\nHost: x\r\nContent-Length: -1\r\n\r\n".utf8),
            Array("GET /api/v1/app/start-config HTTP/1.1\r\nHost: x\r\nContent-Length: 99999999999999999999999\r\n\r\n".utf8),
            Array("GET /api/v1/signals/sg%00evil HTTP/1.1\r\nHost: x\r\n\r\n".utf8),
            Array(("GET /api/v1/" + String(repeating: "b", count: 12_000) + " HTTP/1.1\r\nHost: x\r\n\r\n").utf8),
            Array("GET /api/v1/app/start-config HTTP/1.1\r\nHost: x\r\nX-Accord-Inject: latency:1e308s\r\nX-Device-Id: d\r\nX-OS: ios\r\nX-App-Version: 1.0.0\r\n\r\n".utf8),
            Array("POST /__accord/clock HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 30\r\n\r\n{\"set\":9223372036854775807}   ".utf8),
            Array("POST /__accord/rules HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}".utf8),
        ]
        func round() throws {
            for request in hostile {
                let connection = try RawConnection(port: server.port, timeout: 2)
                connection.send(request)
                connection.closeWriting()   // half-close after sending
                #expect(connection.receiveResponse().hasPrefix("HTTP/1.1 "))
            }
        }
        try round()
        #expect(try Self.answersProbe(server))
        let before = server.residentKiB
        for _ in 0..<30 { try round() }
        #expect(try Self.answersProbe(server))
        #expect(try Self.clockOffset(server) == #""offset_seconds":0"#)
        let after = server.residentKiB
        print("RSS before \(before) KiB, after 30 rounds of \(hostile.count) hostile requests \(after) KiB")
        #expect(after - before < 10_240, "RSS grew from \(before) KiB to \(after) KiB")
    }
}
