import AccordContract
import AccordJSON
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TongbanAPI

/// The generated client (`Tests/TongbanAPI`) against the real `accord serve`.
@Suite(.serialized) struct GeneratedClientTests {
    private func client(_ server: ServerProcess, storage: InMemoryTokenStorage = InMemoryTokenStorage(), timeout: TimeInterval = 30) -> APIClient {
        APIClient(configuration: ClientConfiguration(serverURL: URL(string: server.baseURL)!, appKey: "dev_app_key", appSecret: "dev_app_secret",
                                                     deviceID: "generated-client", os: "ios", appVersion: "1.2.0", timeout: timeout), storage: storage)
    }

    private let login = AuthLoginPhoneRequest(phone: "13800138000", code: "123456",
                                             deviceInfo: DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0"))

    /// The first event a listener got.
    private func firstEvent(_ events: AsyncStream<ClientEvent>) async -> ClientEvent? {
        for await event in events { return event }
        return nil
    }

    @Test func signedCallsAreAcceptedAndLoginStoresTheTokens() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let storage = InMemoryTokenStorage()
        let api = client(server, storage: storage)
        let session = try await api.send(API.auth.loginPhone(login))
        #expect(session.user.uid == 10086)
        #expect(await storage.load()?.accessToken == session.accessToken)
        let inbox = try await api.send(API.signal.inbox(limit: 20, filter: .flash))
        #expect(inbox.items.first?.id == "sg_flash_1")
        let published = try await api.send(API.signal.publish(SignalPublishRequest(content: "你好，同路人 👋", tags: ["旅行"], isFlash: true)))
        #expect(published.content == "你好，同路人 👋")
        #expect(published.isFlash)
        let quota = try await api.send(API.signal.quota())
        #expect(quota.dailyLimit == 20)
    }

    /// Expires the access tokens on the server and answers the next refresh with `fault`.
    private func expireTokens(_ server: ServerProcess, nextRefresh fault: String) async throws {
        let control = Control(server: server)
        try await control.call("POST", "tokens/expire", "{}")
        try await control.call("POST", "rules", #"{"match": {"endpoint": "auth.refresh"}, "fault": "\#(fault)", "times": 1}"#)
    }

    /// The last requests the server journaled, newest last.
    private func journal(_ server: ServerProcess) async throws -> [JSONValue] {
        let (data, _) = try await URLSession.shared.data(from: URL(string: server.baseURL + "/__accord/requests?limit=10")!)
        guard case .array(let entries)? = try JSONReader.read(Array(data))["requests"] else { return [] }
        return entries
    }

    @Test func everyCharacterOfAQueryValueOrPathParameterArrivesAsSent() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        // `+` sent raw would read as a space on the server, and X-Sign would fail (1001).
        let cursor = "a+b/c=d&e?f#g%h i中文😀~"
        // Never issued by the server, so refused; its refusal quotes the cursor as the server read it.
        do {
            _ = try await api.send(API.signal.inbox(cursor: cursor, limit: 20))
            Issue.record("a cursor the server never issued was accepted")
        } catch {
            guard case .business(let code, _, let envelope?) = error else { throw error }
            #expect(code.rawValue == 1000)
            let refusal = try JSONReader.read(Array(envelope))
            #expect(refusal.value(at: "/data/violations/0/actual") == .string(JSONWriter.string(.string(cursor))))
        }
        // A path parameter is escaped once: `/` stays inside its segment, `%` is not escaped twice.
        // No such signal (3001): the server read the id whole, as its not-found message says.
        do {
            _ = try await api.send(API.signal.detail(signalID: "a/b c%中"))
            Issue.record("an unknown signal was found")
        } catch {
            guard case .business(let code, _, let envelope?) = error else { throw error }
            #expect(code.rawValue == 3001)
            #expect(try JSONReader.read(Array(envelope)).value(at: "/data/message")
                    == .string("no record with key 'a/b c%中' in 'signals' for this session"))
        }
        let paths = try await journal(server).compactMap { entry -> String? in
            if case .string(let path)? = entry["path"] { path } else { nil }
        }
        #expect(paths.suffix(2) == ["/api/v1/signals/inbox", "/api/v1/signals/a%2Fb%20c%25%E4%B8%AD"])
    }

    @Test func tenConcurrentCallsThroughAnExpiredTokenRefreshOnce() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        try await Control(server: server).call("POST", "tokens/expire", "{}")
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 { group.addTask { (try? await api.send(API.signal.inbox())) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(succeeded == 10)
        guard case .array(let journal)? = try await Control(server: server).call("GET", "requests").1?["requests"] else {
            Issue.record("no journal")
            return
        }
        #expect(journal.filter { $0["endpoint"] == .string("auth.refresh") }.count == 1)
        #expect(journal.filter { $0["code"] == .int(1002) }.count == 10)
    }

    @Test func silentRefreshOn1005() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        try await Control(server: server).call("POST", "tokens/invalidate", "{}")
        #expect(try await api.send(API.auth.userMe()).nickname == "林间小鹿")
    }

    @Test func forcedLogoutEndsTheSessionWithAnEvent() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let storage = InMemoryTokenStorage()
        let api = client(server, storage: storage)
        let events = api.events
        _ = try await api.send(API.auth.loginPhone(login))
        try await Control(server: server).call("POST", "users/10086/force-logout")
        await #expect(throws: APIError.self) { try await api.send(API.auth.userMe()) }
        #expect(await firstEvent(events) == .loggedOut(.forceLogout))
        #expect(await storage.load() == nil)
    }

    @Test func aFailedRefreshEndsTheSessionWith1007() async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--refresh-ttl", "1h"])
        let api = client(server)
        let events = api.events
        _ = try await api.send(API.auth.loginPhone(login))
        try await Control(server: server).call("POST", "clock", #"{"advance": "2h"}"#)
        do {
            _ = try await api.send(API.signal.quota())
            Issue.record("the call succeeded")
        } catch {
            guard case .sessionEnded(let code) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(code == .refreshInvalid)
        }
        #expect(await firstEvent(events) == .loggedOut(.refreshInvalid))
    }

    @Test func banSurfacesBanInfo() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        let events = api.events
        _ = try await api.send(API.auth.loginPhone(login))
        try await Control(server: server).call("POST", "users/10086/ban", #"{"reason": "多次发布违规内容", "until": "2026-12-07T00:00:00Z"}"#)
        do {
            _ = try await api.send(API.signal.inbox())
            Issue.record("the call succeeded")
        } catch {
            guard case .banned(let info) = error else {
                Issue.record("\(error)")
                return
            }
            // The ban's data as the code table declares it (service.yaml: 1008 → BanNotice).
            #expect(info == BanNotice(banInfo: BanInfo(reason: "多次发布违规内容", until: AccordDateTime(fixture: "2026-12-07T00:00:00Z"))))
            #expect(info.banInfo.until?.date == Date(timeIntervalSince1970: 1_796_601_600))
        }
        #expect(await firstEvent(events) == .banned(BanNotice(banInfo: BanInfo(reason: "多次发布违规内容",
                                                                                until: AccordDateTime(fixture: "2026-12-07T00:00:00Z")))))
    }

    @Test func quotaIsATypedErrorWithAnAlert() async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--inject", "signal.publish=quota"])
        let api = client(server)
        let events = api.events
        _ = try await api.send(API.auth.loginPhone(login))
        do {
            _ = try await api.send(API.signal.publish(SignalPublishRequest(content: "第 21 条", isFlash: false)))
            Issue.record("the call succeeded")
        } catch {
            guard case .business(let code, let message, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(code == .quota)
            #expect(message == "今日信号已达上限")
        }
        #expect(await firstEvent(events) == .alert(.quota, "今日信号已达上限"))
    }

    @Test func aBanAndAQuotaAnsweredAtOnceKeepTheirOwnPayloads() async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--inject", "signal.publish=quota", "--inject", "signal.quota=banned"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        // Forty calls in flight at once, half answered 3008, half 1008: each error must
        // carry its own answer's message and data, never another call's.
        let errors = await withTaskGroup(of: (Bool, APIError?).self) { group in
            for index in 0..<40 {
                group.addTask {
                    do throws(APIError) {
                        if index.isMultiple(of: 2) {
                            _ = try await api.send(API.signal.publish(SignalPublishRequest(content: "第 \(index) 条", isFlash: false)))
                        } else {
                            _ = try await api.send(API.signal.quota())
                        }
                        return (index.isMultiple(of: 2), nil)
                    } catch {
                        return (index.isMultiple(of: 2), error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.count == 40)
        for (isPublish, error) in errors {
            if isPublish {
                guard case .business(let code, let message, _)? = error else {
                    Issue.record("publish: \(String(describing: error))")
                    continue
                }
                #expect(code == .quota)
                #expect(message == "今日信号已达上限")
            } else {
                guard case .banned(let info)? = error else {
                    Issue.record("quota: \(String(describing: error))")
                    continue
                }
                #expect(info.banInfo.reason == "banned by an injected answer")
            }
        }
    }

    @Test(arguments: ["503", "reset", "empty"])
    func aRefreshThatMeetsANetworkFaultKeepsTheSession(fault: String) async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let storage = InMemoryTokenStorage()
        let api = client(server, storage: storage)
        _ = try await api.send(API.auth.loginPhone(login))
        try await expireTokens(server, nextRefresh: fault)
        do {
            _ = try await api.send(API.signal.quota())
            Issue.record("the call succeeded through a failed refresh")
        } catch {
            switch (fault, error) {
            case ("503", .http(let status, _)): #expect(status == 503)
            case ("reset", .offline), ("empty", .offline), ("reset", .transport), ("empty", .transport): break
            default: Issue.record("\(fault): \(error)")
            }
        }
        // The tokens are kept, nobody was logged out, and the next call refreshes and succeeds.
        #expect(await storage.load() != nil)
        let quota = try await api.send(API.signal.quota())
        #expect(quota.dailyLimit == 20)
    }

    /// The server rotates the tokens but answers after the client's deadline: every
    /// waiting caller gets `.timeout` at the deadline, and nothing is logged out or
    /// forgotten then. The rotation did happen, so the next refresh presents a rotated
    /// token, and a server that rotates strictly (as this one, docs/flows.md) ends the
    /// session with 1007: the client cannot undo what the server did.
    @Test func aRefreshAnsweredAfterTheDeadlineTimesOutAndKeepsTheTokens() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let storage = InMemoryTokenStorage()
        let api = client(server, storage: storage, timeout: 1)
        let events = api.events
        _ = try await api.send(API.auth.loginPhone(login))
        let kept = await storage.load()
        try await expireTokens(server, nextRefresh: "latency:2500ms")
        let calls = (0..<3).map { _ in
            Task { () -> APIError? in
                do throws(APIError) { _ = try await api.send(API.signal.quota()); return nil } catch { return error }
            }
        }
        var outcomes: [APIError?] = []
        for call in calls { outcomes.append(await call.value) }
        #expect(outcomes == [.timeout, .timeout, .timeout])
        #expect(await storage.load() == kept)
        await #expect(throws: APIError.sessionEnded(BusinessCode(rawValue: 1007))) { try await api.send(API.signal.quota()) }
        #expect(await firstEvent(events) == .loggedOut(BusinessCode(rawValue: 1007)))
    }

    @Test func aCallerCancelledWhileWaitingForARefreshStopsAndTheOthersGoOn() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        // A slow refresh, so that all ten calls wait on it.
        try await expireTokens(server, nextRefresh: "latency:1500ms")
        let finished = TextBuffer()
        let calls = (0..<10).map { index in
            Task { () -> APIError? in
                do throws(APIError) {
                    _ = try await api.send(API.signal.quota())
                    finished.append(Data("\(index):ok ".utf8))
                    return nil
                } catch {
                    finished.append(Data("\(index):\(error) ".utf8))
                    return error
                }
            }
        }
        try await Task.sleep(nanoseconds: 500_000_000)
        calls[0].cancel()
        var outcomes: [APIError?] = []
        for call in calls { outcomes.append(await call.value) }
        // APIError is Equatable, so an app's tests can compare errors as these do.
        #expect(outcomes[0] == .cancelled)
        #expect(outcomes.dropFirst().allSatisfy { $0 == nil }, "\(outcomes)")
        // It stopped waiting at once: it finished before any call that waited for the refresh.
        #expect(finished.text.hasPrefix("0:cancelled "), "\(finished.text)")
    }

    @Test func tenCallsAnsweredForceLogoutAtOnceLogOutOnce() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        let events = api.events
        _ = try await api.send(API.auth.loginPhone(login))
        let control = Control(server: server)
        try await control.call("POST", "users/10086/force-logout", "{}")
        let errors = await withTaskGroup(of: APIError?.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do throws(APIError) { _ = try await api.send(API.signal.quota()); return nil } catch { return error }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(errors.allSatisfy { if case .sessionEnded(.forceLogout)? = $0 { true } else { false } }, "\(errors)")
        // A 3008 on an endpoint without auth marks the end of the events to count.
        try await control.call("POST", "rules", #"{"match": {"endpoint": "app.start-config"}, "respond": "quota"}"#)
        _ = try? await api.send(API.auth.appStartConfig())
        var loggedOut = 0
        for await event in events {
            if case .loggedOut = event { loggedOut += 1 }
            if case .alert = event { break }
        }
        #expect(loggedOut == 1)
    }

    @Test func signingOutDuringASlowRefreshStaysSignedOut() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let storage = InMemoryTokenStorage()
        let api = client(server, storage: storage)
        _ = try await api.send(API.auth.loginPhone(login))
        try await expireTokens(server, nextRefresh: "latency:1s")
        let call = Task { () -> APIError? in
            do throws(APIError) { _ = try await api.send(API.signal.quota()); return nil } catch { return error }
        }
        try await Task.sleep(nanoseconds: 300_000_000)
        try await api.signOut()
        let error = await call.value
        guard case .sessionEnded? = error else {
            Issue.record("the call during the sign-out: \(String(describing: error))")
            return
        }
        #expect(await storage.load() == nil)
    }

    @Test func callsMadeDuringARefreshWaitForItInsteadOfSendingTheExpiredToken() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        try await expireTokens(server, nextRefresh: "latency:1s")
        let first = Task { try await api.send(API.signal.quota()) }
        try await Task.sleep(nanoseconds: 300_000_000)
        let later = (0..<5).map { _ in Task { try await api.send(API.signal.quota()) } }
        _ = try await first.value
        for call in later { _ = try await call.value }
        // Only the first call met the expired token; the five made during the refresh waited.
        let expired = try await journal(server).filter { $0["endpoint"] == .string("signal.quota") && $0["code"] == .int(1002) }
        #expect(expired.count == 1)
    }

    @Test func everyListenerGetsEveryEvent() async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--inject", "app.start-config=quota"])
        let api = client(server)
        let (first, second) = (api.events, api.events)
        _ = try? await api.send(API.auth.appStartConfig())
        #expect(await firstEvent(first) == .alert(.quota, "今日信号已达上限"))
        #expect(await firstEvent(second) == .alert(.quota, "今日信号已达上限"))
    }

    @Test func anUnknownEnumValueFromTheServerDecodesAsUnknown() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        try await Control(server: server).call("POST", "rules", #"""
            {"match": {"endpoint": "subscriptions.me"}, "respond": {"code": 0, "data": {"is_active": true, "state": "active", "will_renew": false, "platform": "harmonyos"}}}
            """#)
        let entitlement = try await api.send(API.subscriptions.me())
        #expect(entitlement.platform == .unknown("harmonyos"))
        #expect(entitlement.isActive)
    }

    @Test func theStreamedChatReplyIsAnAsyncSequenceOfEvents() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        let request = AIChatRequest(messages: [ChatMessage(role: .user, content: "什么是 actor 重入？")])
        var deltas: [String] = []
        for try await event in api.stream(API.learning.aiChatStream(request)) { deltas.append(event.delta) }
        #expect(deltas == ["actor 的方法", "在 await 处可能被挂起，", "此时其他任务可以进入同一个 actor。"])
        let plain = try await api.send(API.learning.aiChat(request))
        #expect(plain.reply.hasPrefix("actor 的方法"))
    }

    /// The server sends the second and third events a second after the one before: the
    /// first must reach the caller while the server has not yet sent the last (Linux
    /// streams through a data delegate, Apple platforms through `URLSession.bytes`). A
    /// buffered stream hands all three over at once; the bound is one gap of the two, so
    /// a caller's thread held up by a loaded machine does not pass for buffering (with
    /// the fixture's own 120 ms gaps it once did, in CI).
    @Test func streamedEventsArriveBeforeTheStreamEnds() async throws {
        let mocks = try Repository.mocksStreaming(gap: .seconds(1))
        defer { try? FileManager.default.removeItem(atPath: mocks) }
        let server = try ServerProcess(arguments: ["--quiet"], mocks: mocks)
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        let request = AIChatRequest(messages: [ChatMessage(role: .user, content: "什么是 actor 重入？")])
        var arrivals: [Date] = []
        for try await _ in api.stream(API.learning.aiChatStream(request)) { arrivals.append(Date()) }
        let ended = Date()
        #expect(arrivals.count == 3)
        let firstToEnd = ended.timeIntervalSince(try #require(arrivals.first))
        #expect(firstToEnd >= 1, "the first event came \(firstToEnd) s before the end: the stream was buffered")
    }

    @Test func aStreamMeetingAnExpiredTokenRefreshesAndStreams() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        try await Control(server: server).call("POST", "tokens/expire", "{}")
        let request = AIChatRequest(messages: [ChatMessage(role: .user, content: "hi")])
        var deltas: [String] = []
        for try await event in api.stream(API.learning.aiChatStream(request)) { deltas.append(event.delta) }
        #expect(deltas.count == 3)
        let endpoints = try await journal(server).compactMap { entry -> String? in
            guard case .string(let endpoint)? = entry["endpoint"], case .string(let verdict)? = entry["verdict"] else { return nil }
            return "\(endpoint) \(verdict)"
        }
        #expect(endpoints.suffix(3) == ["ai.chat unauthorized", "auth.refresh ok", "ai.chat ok"])
    }

    @Test func transportFailuresAreToldApart() async throws {
        let api = APIClient(configuration: ClientConfiguration(serverURL: URL(string: "http://127.0.0.1:9")!, appKey: "k", appSecret: "s",
                                                               deviceID: "d", os: "ios", appVersion: "1.0.0"))
        do {
            _ = try await api.send(API.auth.appStartConfig())
            Issue.record("a closed port answered")
        } catch {
            guard case .offline = error else {
                Issue.record("\(error)")
                return
            }
        }
    }
}
