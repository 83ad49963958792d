import AccordJSON
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TongbanAPI

/// The screens of mocks/ that run on collections, each as the app runs them: the
/// generated client against the real `accord serve` on a loopback port.
@Suite(.serialized) struct StatefulFlowEndToEndTests {
    /// A transport that files every request under one mock session, as a UI test run would.
    struct SessionTransport: Transport {
        let session: String
        let base = URLSessionTransport()

        func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
            var request = request
            request.setValue(session, forHTTPHeaderField: "X-Accord-Session")
            return try await base.send(request)
        }
    }

    private func client(_ server: ServerProcess, session: String? = nil) -> APIClient {
        let configuration = ClientConfiguration(serverURL: URL(string: server.baseURL)!, appKey: "dev_app_key", appSecret: "dev_app_secret",
                                                deviceID: "stateful", os: "ios", appVersion: "1.2.0")
        guard let session else { return APIClient(configuration: configuration, storage: InMemoryTokenStorage()) }
        return APIClient(configuration: configuration, storage: InMemoryTokenStorage(), transport: SessionTransport(session: session))
    }

    private let login = AuthLoginPhoneRequest(phone: "13800138000", code: "123456",
                                             deviceInfo: DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0"))

    /// The business code a call failed with, or nil if it succeeded.
    private func code<Response>(_ call: () async throws(APIError) -> Response) async -> Int? {
        do {
            _ = try await call()
            return nil
        } catch {
            if case .business(let code, _, _) = error { return code.rawValue }
            return -1
        }
    }

    @Test func publishReplyViewAndDeleteAsTheSignalScreensDo() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        let published = try await api.send(API.signal.publish(SignalPublishRequest(content: "周六去爬山吗？", tags: ["运动"], isFlash: false)))
        #expect(published.sender.uid == 10086)
        #expect(published.tags == ["运动"])
        #expect(try await api.send(API.signal.mine()).items.map(\.id) == [published.id, "sg_8c01"])
        #expect(try await !api.send(API.signal.inbox()).items.contains { $0.id == published.id })
        #expect(try await api.send(API.signal.detail(signalID: published.id)).viewerState.isMine)

        // A reply raises replies_count and shows the viewer replied.
        for text in ["好呀", "几点？"] { _ = try await api.send(API.signal.reply(signalID: "sg_7f3a", body: SignalReplyRequest(content: text))) }
        let replied = try await api.send(API.signal.detail(signalID: "sg_7f3a"))
        #expect(replied.repliesCount == 5)
        #expect(replied.viewerState.hasReplied)

        // Deleted: gone from the list of active ones, the detail answers 3001.
        _ = try await api.send(API.signal.delete(signalID: published.id))
        #expect(try await api.send(API.signal.mine(status: .active)).items.map(\.id) == ["sg_8c01"])
        #expect(await code { () async throws(APIError) in try await api.send(API.signal.detail(signalID: published.id)) } == 3001)

        // A flash signal, once viewed, is gone.
        #expect(try await api.send(API.signal.inbox(filter: .flash)).items.map(\.id) == ["sg_flash_1"])
        _ = try await api.send(API.signal.flashViewed(signalID: "sg_flash_1"))
        #expect(try await api.send(API.signal.inbox(filter: .flash)).items.isEmpty)
        #expect(await code { () async throws(APIError) in try await api.send(API.signal.flashViewed(signalID: "sg_flash_1")) } == 3001)
    }

    @Test func theQuotaFillsUpAndThe21stSignalIs3008ByItself() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        #expect(try await api.send(API.signal.quota()).used == 1)
        for index in 2...20 { _ = try await api.send(API.signal.publish(SignalPublishRequest(content: "第 \(index) 条", isFlash: false))) }
        let quota = try await api.send(API.signal.quota())
        #expect(quota.used == quota.dailyLimit)
        #expect(await code { () async throws(APIError) in
            try await api.send(API.signal.publish(SignalPublishRequest(content: "第 21 条", isFlash: false)))
        } == 3008)
    }

    @Test func theInboxPagesWithTheCursorsTheServerIssues() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        var pages: [[String]] = []
        var cursor: String?
        repeat {
            let page = try await api.send(API.signal.inbox(cursor: cursor, limit: 2))
            pages.append(page.items.map(\.id))
            cursor = page.nextCursor
        } while cursor != nil && pages.count < 5
        // Newest first, the last page without next_cursor.
        #expect(pages == [["sg_flash_1", "sg_7f3a"], ["sg_7f3b"]])
    }

    @Test func aLikeOnAnAdmirerIsAMatchOnceAndAPassDropsTheAdmirer() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        #expect(try await api.send(API.matching.like(uid: 20099)).matched == false)
        let liked = try await api.send(API.matching.like(uid: 20031))
        #expect(liked.matched)
        #expect(liked.match?.user.nickname == "海边的风")
        let again = try await api.send(API.matching.like(uid: 20031))
        #expect(again.match == liked.match)
        _ = try await api.send(API.matching.pass(uid: 20032))
        #expect(try await api.send(API.matching.like(uid: 20032)).matched == false)
        let matches = try await api.send(API.matching.matches())
        #expect(matches.items.map(\.id) == ["mt_20031"])
        #expect(matches.hasMore == false)
    }

    @Test func aLearningSessionMovesToItsEndAndItsReviewFromPendingToDone() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        let started = try await api.send(API.learning.startSession(LearningStartSessionRequest(lessonID: "ls_actor")))
        #expect(started.userID == 10086)
        #expect(started.endedAt == nil)
        let input = try await api.send(API.learning.updateSession(sessionID: started.id, body: LearningUpdateSessionRequest(userInput: "actor 串行化访问")))
        #expect(input.userInput == "actor 串行化访问")
        #expect(input.masteryScore == nil)
        let ended = try await api.send(API.learning.updateSession(sessionID: started.id,
                                                                  body: LearningUpdateSessionRequest(endedAt: AccordDateTime(Date()))))
        #expect(ended.endedAt != nil)
        #expect(ended.masteryScore == 72)
        // Ending scheduled a review of the session's lesson for tomorrow.
        let review = try #require(try await api.send(API.learning.reviewTasks(range: .today)).items.first { $0.sourceSessionID == started.id })
        #expect(review.status == .pending)
        #expect(review.lessonID == "ls_actor")
        let done = try await api.send(API.learning.reviewComplete(taskID: review.id))
        #expect(done.status == .done)
        #expect(done.completedAt != nil)
        #expect(try await !api.send(API.learning.reviewTasks(range: .today)).items.contains { $0.id == review.id })
        #expect(await code { () async throws(APIError) in try await api.send(API.learning.reviewComplete(taskID: review.id)) } == 5001)
        #expect(await code { () async throws(APIError) in
            try await api.send(API.learning.updateSession(sessionID: "ss_never", body: LearningUpdateSessionRequest(userInput: "x")))
        } == 5001)
    }

    @Test func aVerifiedPurchaseMakesTheEntitlementActive() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        #expect(try await api.send(API.subscriptions.me()).isActive == false)
        let granted = try await api.send(API.subscriptions.verify(SubscriptionsVerifyRequest(productID: "tongban.vip.yearly", transactionID: "2000000812345678",
                                                                                              environment: .sandbox)))
        #expect(granted.isActive)
        let me = try await api.send(API.subscriptions.me())
        #expect(me == granted)
        #expect(me.productID == "tongban.vip.yearly")
        #expect(try await api.send(API.subscriptions.restore()) == granted)
    }

    @Test func twoSessionsInParallelNeverSeeEachOthersRecords() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        // Two UI test runs at once, each its own user (a second login of one user logs the first out, 1006).
        let runs = [("ui-1", "13800138000"), ("ui-2", "13900000001")]
        let seen = try await withThrowingTaskGroup(of: (String, Set<String>, Set<String>).self) { group in
            for (session, phone) in runs {
                group.addTask {
                    let api = client(server, session: session)
                    var credentials = login
                    credentials.phone = phone
                    _ = try await api.send(API.auth.loginPhone(credentials))
                    var published: Set<String> = []
                    for index in 0..<8 {
                        published.insert(try await api.send(API.signal.publish(SignalPublishRequest(content: "\(session) \(index)", isFlash: false))).id)
                    }
                    let mine = try await api.send(API.signal.mine(limit: 50))
                    return (session, published, Set(mine.items.map(\.id)))
                }
            }
            return try await group.reduce(into: [String: (published: Set<String>, listed: Set<String>)]()) { $0[$1.0] = ($1.1, $1.2) }
        }
        for (session, _) in runs {
            let run = try #require(seen[session])
            #expect(run.published.count == 8)
            #expect(run.listed == run.published.union(["sg_8c01"]), "\(session)")
        }
        #expect(seen["ui-1"]?.published.isDisjoint(with: seen["ui-2"]?.published ?? []) == true)
    }

    @Test func aHotReloadKeepsTheRecordsOfCollectionsWhoseTypeDidNotChange() async throws {
        let mocks = FileManager.default.temporaryDirectory.appendingPathComponent("accord-stateful-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: mocks) }
        try FileManager.default.copyItem(atPath: Repository.mocks, toPath: mocks.path)
        let server = try ServerProcess(arguments: ["--quiet"], mocks: mocks.path)
        let api = client(server)
        _ = try await api.send(API.auth.loginPhone(login))
        let published = try await api.send(API.signal.publish(SignalPublishRequest(content: "留下来", isFlash: false)))
        // An edit to the fixtures and the collection's description, not to its type.
        let file = mocks.appendingPathComponent("collections/signals.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        try text.replacingOccurrences(of: "description: Signals in the session", with: "description: Edited. Signals in the session")
            .write(to: file, atomically: true, encoding: .utf8)
        try server.waitFor(timeout: 10) { out, _ in out.contains("accord serve: reloaded") }
        #expect(try await api.send(API.signal.mine()).items.map(\.id).contains(published.id))
    }
}
