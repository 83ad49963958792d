import AccordJSON
import AccordRedis
import AccordSync
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing

/// `accord serve --storage redis://…` when Redis is not there, goes away, comes back or
/// answers errors: a clear refusal at start, 503 with `Retry-After` while it is away
/// (never a crash, never an empty answer, never a nonce accepted unchecked), and service
/// again by itself once it is back.
@Suite(.serialized) struct RedisFaultTests {
    @Test func anUnreachableRedisAtStartIsAnErrorNamingTheURL() throws {
        let port = LoopbackListener()
        let url = "redis://127.0.0.1:\(port.port)/0?prefix=start"
        port.close()
        let result = try ExternalCommand.run(ServerProcess.executable.path, ["serve", "--port", "0", "--contracts", Repository.contracts,
                                                                             "--mocks", Repository.mocks, "--storage", url])
        #expect(result.status == 1)
        #expect(result.errors.contains("error: --storage \(url): cannot connect to 127.0.0.1:\(port.port): Connection refused"), "\(result.errors)")
    }

    @Test func aRedisThatEvictsKeysIsRefusedUnlessAllowed() throws {
        let redis = try RedisServer(arguments: ["--maxmemory-policy", "allkeys-lru"])
        let url = redis.urlText("evicting")
        let refused = try ExternalCommand.run(ServerProcess.executable.path, ["serve", "--port", "0", "--contracts", Repository.contracts,
                                                                              "--mocks", Repository.mocks, "--storage", url])
        #expect(refused.status == 1)
        #expect(refused.errors.contains("has maxmemory-policy 'allkeys-lru', which evicts keys"), "\(refused.errors)")
        let allowed = try ServerProcess(arguments: ["--quiet", "--storage", url, "--allow-eviction"])
        #expect(allowed.standardOutput.contains("eviction allowed (--allow-eviction)"))
    }

    /// Logins as fast as one client sends them, each client on a thread of its own; each
    /// answer's status and body size, timed where URLSession hands it over. Not on the
    /// tasks' shared threads: beside suites that block them (a `swift build` waited for),
    /// an answer could wait seconds there to be seen, and the time would be the test's, not the server's.
    private final class Load: @unchecked Sendable {
        /// Each answer with when its request was sent and when the answer arrived.
        let answers = Locked<[(sent: ContinuousClock.Instant, at: ContinuousClock.Instant, status: Int, bytes: Int, retryAfter: String?)]>([])
        let running = Locked(true)
        private let finished = DispatchGroup()

        func start(_ server: ServerProcess, clients: Int) {
            for _ in 0..<clients {
                finished.enter()
                Thread.detachNewThread { [self] in
                    while running.withLock({ $0 }) { login(server) }
                    finished.leave()
                }
            }
        }

        /// Stops the clients and waits for the answers to the requests they had sent.
        func stop() {
            running.withLock { $0 = false }
            finished.wait()
        }

        private func login(_ server: ServerProcess) {
            var request = URLRequest(url: URL(string: server.baseURL + "/api/v1/auth/login/phone")!)
            request.httpMethod = "POST"
            request.httpBody = Data(ServeEndToEndTests.loginBody.utf8)
            for (name, value) in ServeEndToEndTests.signedHeaders("/api/v1/auth/login/phone", body: ServeEndToEndTests.loginBody) {
                request.setValue(value, forHTTPHeaderField: name)
            }
            let answered = DispatchSemaphore(value: 0)
            let sent = ContinuousClock.now
            URLSession.shared.dataTask(with: request) { [answers] data, response, _ in
                let at = ContinuousClock.now
                let http = response as? HTTPURLResponse
                answers.withLock { $0.append((sent, at, http?.statusCode ?? 0, data?.count ?? 0, http?.value(forHTTPHeaderField: "Retry-After"))) }
                answered.signal()
            }.resume()
            answered.wait()
        }
    }

    /// Within 2 s of Redis's return; under ThreadSanitizer (scripts/test sets TSAN_OPTIONS
    /// for that run), whose instrumentation slows the server several times over while the
    /// other sanitized suites run beside it on two cores, within 12 s: such runs took 2.8 s
    /// and, once, 8.1 s. The 2 s bound is held in the uninstrumented run.
    private static let recoveryBound: Duration = ProcessInfo.processInfo.environment["TSAN_OPTIONS"] == nil ? .seconds(2) : .seconds(12)

    @Test func redisKilledUnderLoadIsOnly503sThenServiceWithinTwoSecondsOfItsReturn() async throws {
        let redis = try RedisServer()
        let server = try ServerProcess(arguments: ["--no-reload", "--storage", redis.urlText("kill")])
        let load = Load()
        load.start(server, clients: 4)
        // Served first (under ThreadSanitizer the first answers take a while), then killed.
        for _ in 0..<200 where !load.answers.withLock({ $0.contains { $0.status == 200 } }) {
            try await Task.sleep(for: .milliseconds(50))
        }
        try await Task.sleep(for: .milliseconds(300))
        redis.kill9()
        let killed = ContinuousClock.now
        try await Task.sleep(for: .milliseconds(1_000))
        try redis.restart()
        let restarted = ContinuousClock.now
        try await Task.sleep(for: Self.recoveryBound + .milliseconds(500))
        load.stop()

        let answers = load.answers.withLock { $0 }
        #expect(server.waitForExit(timeout: 0) == nil, "the server is still running")
        #expect(answers.allSatisfy { $0.status == 200 || $0.status == 503 }, "\(Set(answers.map(\.status)))")
        #expect(answers.allSatisfy { $0.bytes > 0 })
        let unavailable = answers.filter { $0.status == 503 }
        #expect(!unavailable.isEmpty && unavailable.allSatisfy { $0.retryAfter == "1" })
        #expect(answers.contains { $0.at < killed && $0.status == 200 })
        let firstBack = answers.first { $0.at > restarted && $0.status == 200 }?.at
        #expect(firstBack.map { $0 - restarted < Self.recoveryBound } == true, "service resumed \(String(describing: firstBack.map { $0 - restarted })) after the restart")
        // After it, nothing fails again: no request sent once an answer had shown service
        // back (a 503 decided just before the return may still arrive after that answer).
        #expect(answers.filter { $0.sent > (firstBack ?? restarted) }.allSatisfy { $0.status == 200 })
        #expect(server.standardOutput.contains("503 code=1000") && server.standardOutput.contains("storage-unavailable auth.login-phone failure: Redis: "))
    }

    @Test func aKeyOfTheWrongTypeIs503WithTheReasonInTheLog() async throws {
        let redis = try RedisServer.shared()
        let url = redis.url("wrongtype")
        let server = try ServerProcess(arguments: ["--no-reload", "--storage", url.description])
        let client = RedisClient(url: url)
        try client.send(RedisCommand("RPUSH", client.key("clock", "offset"), "not-a-number"))
        let (status, envelope) = try await Replicas.send(server, "POST", "/api/v1/auth/login/phone", body: ServeEndToEndTests.loginBody)
        #expect(status == 503)
        #expect(envelope?.value(at: "/data/error") == .string("storage_unavailable"))
        // The login's token script reads the clock's offset, and Redis's error says so.
        let message = "the server's storage failed: Redis: script: WRONGTYPE Operation against a key holding the wrong kind of value"
        #expect(envelope.flatMap { if case .string(let text)? = $0["msg"] { text.hasPrefix(message) } else { nil } } == true, "\(String(describing: envelope))")
        try server.waitFor(timeout: 5) { output, _ in output.contains("WRONGTYPE") }
        #expect(server.standardOutput.contains("503 code=") && server.standardOutput.contains("failure: Redis: script: WRONGTYPE Operation against a key holding the wrong kind of value"))
    }
}
