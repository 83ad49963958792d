import AccordHTTP
import AccordServer
import AccordSync
import Foundation
import Testing

/// The access log's lines, byte for byte, in both formats.
struct AccessLogTests {
    @Test func writesOneTextLinePerRequestWithEveryPartItHas() {
        let written = Locked<[UInt8]>([])
        let log = AccessLog(format: .text) { bytes in written.withLock { $0 += bytes } }
        var full = MockResponse.Summary(endpoint: "signal.inbox", source: "example:default", code: 0, verdict: .ok)
        full.problems = 2
        full.failure = "storage: 中 down"
        log.record(MockRequest(method: "GET", target: "/api/v1/signals/inbox?limit=20"), MockResponse(status: 200, summary: full),
                   latencyMicroseconds: 12_345)
        log.record(MockRequest(method: "post", target: "/nowhere"), MockResponse(status: 404, summary: .init(verdict: .noRoute)),
                   latencyMicroseconds: 99)
        log.close()
        #expect(String(decoding: written.withLock { $0 }, as: UTF8.self) == """
            GET /api/v1/signals/inbox 200 code=0 12.3ms ok signal.inbox example:default problems=2 failure: storage: 中 down
            POST /nowhere 404 0.0ms no-route

            """)
    }

    @Test func writesOneJSONObjectPerRequest() throws {
        let written = Locked<[UInt8]>([])
        let log = AccessLog(format: .json) { bytes in written.withLock { $0 += bytes } }
        log.record(MockRequest(method: "GET", target: "/a?b=c"), MockResponse(status: 200, summary: .init(endpoint: "a.get", code: 7, verdict: .ok)),
                   latencyMicroseconds: 1_500)
        log.close()
        let lines = String(decoding: written.withLock { $0 }, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 1)
        let object = try #require(JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any])
        #expect(object["method"] as? String == "GET")
        #expect(object["path"] as? String == "/a")
        #expect(object["status"] as? Int == 200)
        #expect(object["code"] as? Int == 7)
        #expect(object["latency_ms"] as? Double == 1.5)
        #expect(object["verdict"] as? String == "ok")
        #expect(object["endpoint"] as? String == "a.get")
        #expect((object["time"] as? String)?.hasSuffix("Z") == true)
    }
}
