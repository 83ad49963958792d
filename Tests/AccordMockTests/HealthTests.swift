import AccordHTTP
import AccordJSON
import AccordMock
import AccordRedis
import AccordRedisStorage
import AccordTesting
import Testing

/// `GET /__accord/health`, the probe an orchestrator sends: it reaches the replica by
/// its pod address, without the admin token, and learns only whether it can serve.
@Suite struct HealthTests {
    private func probe(host: String = "10.1.2.3:8080", method: String = "GET") -> MockRequest {
        var request = MockRequest(method: method, target: "/__accord/health", headers: [("Host", host)])
        request.isFromLoopback = false
        return request
    }

    @Test func aProbeFromAnyAddressNeedsNoTokenAndSaysOK() throws {
        var options = MockOptions()
        options.adminToken = "s3cret"
        let fixture = try EngineFixture(options: options)
        let answer = fixture.handle(probe())
        #expect(answer.status == 200)
        #expect(try JSONReader.read(answer.bodyBytes) == .object([.init("status", .string("ok"))]))
        #expect(fixture.handle(probe(method: "HEAD")).status == 200)
        // Nothing else of the control API opens up with it.
        var rules = MockRequest(method: "GET", target: "/__accord/rules", headers: [("Host", "10.1.2.3:8080")])
        rules.isFromLoopback = false
        #expect(fixture.handle(rules).status == 403)
        #expect(fixture.handle(probe(method: "POST")).status == 403)
    }

    @Test func aReplicaWhoseRedisIsAwayIsUnavailable() throws {
        let fixture = try EngineFixture(storage: { _ in
            RedisStorage(url: RedisURL(host: "127.0.0.1", port: 9, prefix: "health"), nonceTTLSeconds: 60, random: { 0 })
        })
        let answer = fixture.handle(probe(host: "127.0.0.1:8080"))
        #expect(answer.status == 503)
        #expect(answer.header("Retry-After") == "1")
        let body = try JSONReader.read(answer.bodyBytes)
        #expect(body["status"] == .string("unavailable"))
        #expect(body["reason"] == .string("Redis: cannot connect to 127.0.0.1:9: Connection refused"))
    }
}
