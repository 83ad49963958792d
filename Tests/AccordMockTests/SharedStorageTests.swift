import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordRedisStorage
import AccordSigning
import AccordTesting
import Foundation
import Testing

/// Two engines over one ``MockStorage``, as two `accord serve` replicas behind a load
/// balancer would share one store: whatever one replica learns, the other answers by.
/// Runs on both drivers: one in-memory storage, and two ``RedisStorage`` values on one Redis.
@Suite struct SharedStorageTests {
    private let now: Int64 = 1_796_025_600
    private let project = Repository.project

    private func replica(_ storage: any MockStorage) -> MockEngine {
        MockEngine(contract: project.contract, fixtures: project.fixtures, scenarios: project.scenarios, collections: project.collections,
                   state: MockState(storage: storage))
    }

    private func request(_ method: String, _ target: String, body: String? = nil, token: String?, nonce: String,
                         headers extra: [(String, String)] = []) -> MockRequest {
        var headers = TestSigner.headers(target: target, body: body, timestamp: now, nonce: nonce) + TestSigner.serviceHeaders + extra
        if let token { headers.append(("Authorization", "Bearer \(token)")) }
        if body != nil { headers.append(("Content-Type", "application/json")) }
        return MockRequest(method: method, target: target, headers: headers, body: Array((body ?? "").utf8))
    }

    private func json(_ response: MockResponse) throws -> JSONValue {
        try JSONReader.read(response.bodyBytes)
    }

    @Test(arguments: StorageDriver.allCases)
    func whatOneReplicaLearnsTheOtherAnswersBy(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: now)
        let sibling = try driver.sibling(of: storage, wall: now)
        let (a, b) = (replica(storage), replica(sibling))
        let login = #"{"phone":"13800138000","code":"123456","device_info":{"os":"ios","device_id":"D","os_version":"26","model":"i","app_version":"1.2.0"}}"#
        let session = try json(a.handle(request("POST", "/api/v1/auth/login/phone", body: login, token: nil, nonce: "n-1")))
        let token = try #require(session.value(at: "/data/access_token").flatMap { if case .string(let text) = $0 { text } else { nil } })

        // A token issued by one is valid on the other; a nonce seen by one is a replay on the other.
        #expect(try json(b.handle(request("GET", "/api/v1/signals/quota", token: token, nonce: "n-2")))["code"] == .int(0))
        #expect(try json(a.handle(request("GET", "/api/v1/signals/quota", token: token, nonce: "n-2")))["code"] == .int(1004))

        // A record written through one is listed by the other, and its cursor pages there.
        for index in 0..<3 {
            let published = a.handle(request("POST", "/api/v1/signals", body: #"{"content":"\#(index)","is_flash":false}"#, token: token, nonce: "p-\(index)"))
            #expect(try json(published)["code"] == .int(0))
        }
        let first = try json(b.handle(request("GET", "/api/v1/signals/mine?limit=2", token: token, nonce: "m-1")))
        let cursor = try #require(first.value(at: "/data/next_cursor").flatMap { if case .string(let text) = $0 { text } else { nil } })
        let escaped = cursor.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? cursor
        let second = try json(a.handle(request("GET", "/api/v1/signals/mine?limit=2&cursor=\(escaped)", token: token, nonce: "m-2")))
        #expect(second["code"] == .int(0))
        // sg_2…sg_4 (the login's im_token took seq 1), newest first: the second page starts at sg_2.
        #expect(second.value(at: "/data/items/0/id") == .string("sg_2"))

        // A rule added on one fires on the other, and `{{seq}}` counts across both.
        _ = try storage.rules.add(InjectionRule(parsing: "signal.quota=3008@once", codes: project.contract.service.codes))
        #expect(try json(b.handle(request("GET", "/api/v1/signals/quota", token: token, nonce: "r-1")))["code"] == .int(3008))
        #expect(try storage.nextSequence() == 5)
        // The journal holds both replicas' requests (a replica writes what it queued when it lists).
        _ = try sibling.journal.entries()
        #expect(try storage.journal.entries().count == 9)
    }

    /// Counted by Redis itself (`MONITOR`): a signed, authenticated GET of a fixture is one
    /// command, the prelude script that stores its nonce and reads the clock's offset, the
    /// rules' version, the token's verdict, the ban and the scenario; a login is two, the
    /// prelude (which reserves the `{{seq}}` its answer takes) and the script that checks
    /// the ban and issues the pair.
    @Test func aSignedAuthenticatedGetIsOneRoundTripAndALoginTwo() throws {
        let storage = try StorageDriver.redis.make(wall: now)
        let prefix = try #require((storage as? RedisStorage)?.client.url.prefix)
        let engine = replica(storage)
        let login = #"{"phone":"13800138000","code":"123456","device_info":{"os":"ios","device_id":"D","os_version":"26","model":"i","app_version":"1.2.0"}}"#
        func loggingIn(_ nonce: String) throws -> JSONValue { try json(engine.handle(request("POST", "/api/v1/auth/login/phone", body: login, token: nil, nonce: nonce))) }
        let token = try #require(try loggingIn("l-1").value(at: "/data/access_token").flatMap { if case .string(let text) = $0 { text } else { nil } })

        // The journal's queued appends go out in the background: written now, they cannot fall into the count.
        _ = try storage.journal.entries()
        var monitor = try RedisMonitor(redis: RedisServer.shared())
        #expect(try json(engine.handle(request("GET", "/api/v1/users/me", token: token, nonce: "g-1")))["code"] == .int(0))
        let get = try monitor.stop().requestCommands(under: prefix)
        #expect(get.map { $0.arguments.first ?? "" } == ["EVALSHA"], "\(get.map(\.arguments))")

        _ = try storage.journal.entries()
        monitor = try RedisMonitor(redis: RedisServer.shared())
        let second = try loggingIn("l-2")
        #expect(second["code"] == .int(0))
        #expect(second.value(at: "/data/im_token") == .string("im_2"))
        let logins = try monitor.stop().requestCommands(under: prefix)
        #expect(logins.map { $0.arguments.first ?? "" } == ["EVALSHA", "EVALSHA"], "\(logins.map(\.arguments))")
        #expect(try storage.nextSequence() == 3)
    }

    /// A publish answered by an injected error takes no `{{seq}}` number; the next publish
    /// takes the next one (on Redis, the number its prelude reserved waits for it).
    @Test(arguments: StorageDriver.allCases)
    func anAnswerThatTakesNoNumberSkipsNone(_ driver: StorageDriver) throws {
        let storage = try driver.make(wall: now)
        let engine = replica(storage)
        let login = #"{"phone":"13800138000","code":"123456","device_info":{"os":"ios","device_id":"D","os_version":"26","model":"i","app_version":"1.2.0"}}"#
        let session = try json(engine.handle(request("POST", "/api/v1/auth/login/phone", body: login, token: nil, nonce: "l-1")))
        #expect(session.value(at: "/data/im_token") == .string("im_1"))
        let token = try #require(session.value(at: "/data/access_token").flatMap { if case .string(let text) = $0 { text } else { nil } })
        let refused = request("POST", "/api/v1/signals", body: #"{"content":"x","is_flash":false}"#, token: token, nonce: "p-1",
                              headers: [("X-Accord-Inject", "3008")])
        #expect(try json(engine.handle(refused))["code"] == .int(3008))
        let published = try json(engine.handle(request("POST", "/api/v1/signals", body: #"{"content":"y","is_flash":false}"#, token: token, nonce: "p-2")))
        #expect(published.value(at: "/data/id") == .string("sg_2"))
        #expect(try storage.nextSequence() == 3)
    }
}
