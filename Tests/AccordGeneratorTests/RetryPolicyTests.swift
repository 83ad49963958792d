import AccordContract
import AccordGenerator
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TongbanAPI

/// The generated client's retry policy for faults: what the contract's `flows.retry` and
/// an endpoint's `retry:` become in the Swift, which failures are retried and how long
/// the client waits, and the requests a fault makes it send through the `Transport` seam.
@Suite struct RetryPolicyTests {
    /// Fails the first `failures` requests with `failure`, then answers one envelope; keeps the requests.
    private actor FlakyTransport: Transport {
        private(set) var requests: [URLRequest] = []
        let failures: Int
        let failure: @Sendable (URLRequest) throws -> (Data, HTTPURLResponse)

        init(failures: Int, failure: @escaping @Sendable (URLRequest) throws -> (Data, HTTPURLResponse)) {
            self.failures = failures
            self.failure = failure
        }

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            requests.append(request)
            if requests.count <= failures { return try failure(request) }
            let response = HTTPURLResponse(url: request.url!, statusCode: 200, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": "application/json"])!
            return (Data(#"{"code":0,"msg":"ok","data":{"daily_limit":20,"used":1,"resets_at":"2026-12-01T00:00:00Z"}}"#.utf8), response)
        }
    }

    private static func unavailable(retryAfter: String?) -> @Sendable (URLRequest) throws -> (Data, HTTPURLResponse) {
        { request in
            let headers = ["Content-Type": "text/plain"].merging(retryAfter.map { ["Retry-After": $0] } ?? [:]) { first, _ in first }
            return (Data("Service Unavailable".utf8), HTTPURLResponse(url: request.url!, statusCode: 503, httpVersion: "HTTP/1.1", headerFields: headers)!)
        }
    }

    private func client(_ transport: FlakyTransport, policy: RetryPolicy) -> APIClient {
        let counter = NonceCounter()
        return APIClient(configuration: ClientConfiguration(serverURL: URL(string: "https://api.example.com/")!, appKey: "dev_app_key",
                                                            appSecret: "dev_app_secret", deviceID: "D-1", os: "ios", appVersion: "1.2.0", retryPolicy: policy),
                         storage: InMemoryTokenStorage(Tokens(accessToken: "at_1", refreshToken: "rt_1")), transport: transport,
                         nonce: { counter.next() })
    }

    private final class NonceCounter: @unchecked Sendable {
        private let lock = NSLock()
        private var count = 0

        func next() -> String {
            lock.withLock {
                count += 1
                return "n-\(count)"
            }
        }
    }

    @Test func theContractsPolicyWaitsAndStopsAsItSays() {
        let policy = RetryPolicy.contract
        #expect(policy == RetryPolicy(attempts: 2, backoff: 0.2, maxBackoff: 2, methods: [.get, .put, .delete]))
        let inbox = API.signal.inbox()
        #expect([1, 2, 3].map { policy.delay(beforeRetry: $0, of: inbox, after: APIError.offline) } == [0.2, 0.4, nil])
        #expect(policy.delay(beforeRetry: 1, of: inbox, after: APIError.http(status: 502, body: "")) == 0.2)
        #expect(policy.delay(beforeRetry: 1, of: inbox, after: APIError.timeout) == 0.2)
        // A server asking for a longer wait than the policy's longest is not retried; a shorter one is waited for.
        #expect(policy.delay(beforeRetry: 1, of: inbox, after: APIError.http(status: 503, body: ""), serverAsks: 5) == nil)
        #expect(policy.delay(beforeRetry: 1, of: inbox, after: APIError.http(status: 503, body: ""), serverAsks: 1) == 1)
        // Answers are not faults, and a POST is not retried.
        #expect(policy.delay(beforeRetry: 1, of: inbox, after: APIError.http(status: 404, body: "")) == nil)
        #expect(policy.delay(beforeRetry: 1, of: inbox, after: APIError.undecodable("cut")) == nil)
        #expect(policy.delay(beforeRetry: 1, of: API.signal.publish(SignalPublishRequest(content: "x", isFlash: false)), after: APIError.offline) == nil)
        #expect(RetryPolicy.never.delay(beforeRetry: 1, of: inbox, after: APIError.offline) == nil)
    }

    @Test func aFaultedGETIsSentAgainSignedAfreshUntilItIsAnswered() async throws {
        let transport = FlakyTransport(failures: 2) { _ in throw URLError(.networkConnectionLost) }
        let api = client(transport, policy: RetryPolicy(attempts: 2, backoff: 0.01, maxBackoff: 0.05, methods: [.get]))
        let quota = try await api.send(API.signal.quota())
        #expect(quota.dailyLimit == 20)
        let nonces = await transport.requests.map { $0.value(forHTTPHeaderField: "X-Nonce") }
        #expect(nonces == ["n-1", "n-2", "n-3"])
    }

    @Test func theAttemptsSpentTheFaultReachesTheCaller() async throws {
        let transport = FlakyTransport(failures: 3, failure: Self.unavailable(retryAfter: nil))
        let api = client(transport, policy: RetryPolicy(attempts: 2, backoff: 0.01, maxBackoff: 0.05, methods: [.get]))
        await #expect(throws: APIError.http(status: 503, body: "Service Unavailable")) { try await api.send(API.signal.quota()) }
        #expect(await transport.requests.count == 3)
    }

    @Test func aPOSTAndAServerAskingForTooLongAreNotRetried() async throws {
        let reset = FlakyTransport(failures: 1) { _ in throw URLError(.networkConnectionLost) }
        let api = client(reset, policy: .contract)
        await #expect(throws: APIError.offline) { try await api.send(API.signal.publish(SignalPublishRequest(content: "x", isFlash: false))) }
        #expect(await reset.requests.count == 1)
        let busy = FlakyTransport(failures: 1, failure: Self.unavailable(retryAfter: "5"))
        await #expect(throws: APIError.http(status: 503, body: "Service Unavailable")) { try await client(busy, policy: .contract).send(API.signal.quota()) }
        #expect(await busy.requests.count == 1)
    }

    @Test func theContractsPolicyAndAnEndpointsRetryBecomeTheSwift() throws {
        let service = "service:\n  name: s\nflows:\n  retry: {attempts: 3, backoff: 150ms, max_backoff: 1s, methods: [GET, POST]}\n"
            + "codes:\n  1000: {name: invalid, msg: bad, http: 400}\n"
        let shop = "domain: shop\nendpoints:\n  shop.list:\n    route: GET /items\n    auth: false\n    retry: false\n"
            + "  shop.buy:\n    route: POST /items\n    auth: false\n"
        let outcome = ContractLoader().load([.init(path: "service.yaml", bytes: Array(service.utf8)), .init(path: "shop.yaml", bytes: Array(shop.utf8))],
                                            directory: "contracts")
        #expect(outcome.diagnostics.isEmpty, "\(outcome.diagnostics)")
        let files = SwiftGenerator(contract: try #require(outcome.contract)).files()
        let serviceFile = try #require(files.first { $0.path == "Support/Service.swift" }).contents
        #expect(serviceFile.contains("public static let contract = RetryPolicy(attempts: 3, backoff: 0.15, maxBackoff: 1, methods: [.get, .post])"))
        let endpoints = files.filter { $0.path.hasPrefix("Endpoints/") }.map(\.contents).joined()
        #expect(endpoints.contains("    path: \"/items\",\n            requiresAuth: false, retriesFaults: false\n"))
        #expect(!endpoints.contains("retriesFaults: true"))
    }
}
