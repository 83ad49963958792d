import AccordJSON
import AccordTesting
import Foundation
import Testing
import TongbanAPI

/// The generated client (`Tests/TongbanAPI`) against `accord serve --check-flows
/// --scenario exercise-flows` (or `exercise-flows-random`): calling every endpoint until each flow the contract
/// declares for it was injected (a refresh's code, a forced logout, a ban, an alert, a
/// 502), as an app's UI tests would, meets every cell of the report's matrix, puts every
/// rule to a request and breaks none. The driver does what an app does around the client: it
/// logs in again after the session ended or a ban, and does not send a call again within
/// the alert window.
@Suite(.serialized) struct ExerciseFlowsClientTests {
    private let login = AuthLoginPhoneRequest(phone: "13800138000", code: "123456",
                                             deviceInfo: DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0"))

    /// The calls driven: every endpoint of the seed but the logins, the refresh and the
    /// logout (which the client calls itself), the unauthenticated SMS send and the stream,
    /// with ids the mock may not know (answered with a business code, which is fine here).
    private static let calls: [(endpoint: String, call: @Sendable (APIClient) async throws -> Void)] = [
        ("auth.im-token", { _ = try await $0.send(API.auth.imToken()) }),
        ("user.me", { _ = try await $0.send(API.auth.userMe()) }),
        ("app.start-config", { _ = try await $0.send(API.auth.appStartConfig()) }),
        ("learning.knowledge-bases", { _ = try await $0.send(API.learning.knowledgeBases()) }),
        ("learning.profile", { _ = try await $0.send(API.learning.profile()) }),
        ("learning.goals", { _ = try await $0.send(API.learning.goals()) }),
        ("learning.reminders", { _ = try await $0.send(API.learning.reminders()) }),
        ("learning.achievements", { _ = try await $0.send(API.learning.achievements()) }),
        ("learning.review-tasks", { _ = try await $0.send(API.learning.reviewTasks()) }),
        ("learning.sessions", { _ = try await $0.send(API.learning.sessions()) }),
        ("matching.feed", { _ = try await $0.send(API.matching.feed()) }),
        ("matching.matches", { _ = try await $0.send(API.matching.matches()) }),
        ("matching.blocks", { _ = try await $0.send(API.matching.blocks()) }),
        ("push.settings", { _ = try await $0.send(API.push.settings()) }),
        ("signal.inbox", { _ = try await $0.send(API.signal.inbox()) }),
        ("signal.mine", { _ = try await $0.send(API.signal.mine()) }),
        ("signal.quota", { _ = try await $0.send(API.signal.quota()) }),
        ("signal.publish", { _ = try await $0.send(API.signal.publish(SignalPublishRequest(content: "今天也要加油", isFlash: false))) }),
        ("subscriptions.products", { _ = try await $0.send(API.subscriptions.products()) }),
        ("subscriptions.me", { _ = try await $0.send(API.subscriptions.me()) }),
        ("subscriptions.restore", { _ = try await $0.send(API.subscriptions.restore()) }),
        ("payments.order", { _ = try await $0.send(API.subscriptions.paymentsOrder(orderNo: 202_612_010_001)) }),
        ("matching.like", { _ = try await $0.send(API.matching.like(uid: 10_087)) }),
        ("matching.super-like", { _ = try await $0.send(API.matching.superLike(uid: 10_088)) }),
        ("matching.pass", { _ = try await $0.send(API.matching.pass(uid: 10_089)) }),
        ("matching.unmatch", { _ = try await $0.send(API.matching.unmatch(matchID: "m_1")) }),
        ("matching.block", { _ = try await $0.send(API.matching.block(uid: 10_090)) }),
        ("matching.unblock", { _ = try await $0.send(API.matching.unblock(uid: 10_090)) }),
        ("signal.detail", { _ = try await $0.send(API.signal.detail(signalID: "sg_1")) }),
        ("signal.flash-viewed", { _ = try await $0.send(API.signal.flashViewed(signalID: "sg_1")) }),
        ("signal.delete", { _ = try await $0.send(API.signal.delete(signalID: "sg_9")) }),
        ("signal.draw", { _ = try await $0.send(API.signal.draw()) }),
        ("learning.paths", { _ = try await $0.send(API.learning.paths(kbID: "kb_1")) }),
        ("learning.lessons", { _ = try await $0.send(API.learning.lessons(pathID: "path_1")) }),
        ("learning.lesson", { _ = try await $0.send(API.learning.lesson(lessonID: "lesson_1")) }),
        ("learning.search-kb", { _ = try await $0.send(API.learning.searchKB(q: "swift")) }),
        ("review.complete", { _ = try await $0.send(API.learning.reviewComplete(taskID: "task_1")) }),
        ("review.skip", { _ = try await $0.send(API.learning.reviewSkip(taskID: "task_2")) }),
        ("push.unregister", { _ = try await $0.send(API.push.unregister(deviceToken: String(repeating: "a1", count: 32))) }),
        ("upload.file", { _ = try await $0.send(API.upload.file(fileID: String(repeating: "0f", count: 16))) }),
        ("user.cancel-deletion", { _ = try await $0.send(API.auth.userCancelDeletion()) }),
        ("signal.reply", { _ = try await $0.send(API.signal.reply(signalID: "sg_1", body: SignalReplyRequest(content: "我也是"))) }),
        ("matching.report", { _ = try await $0.send(API.matching.report(uid: 10_091, body: MatchingReportRequest(reason: .spam))) }),
        ("learning.start-session", { _ = try await $0.send(API.learning.startSession(LearningStartSessionRequest(lessonID: "lesson_1"))) }),
        ("learning.update-session", { _ = try await $0.send(API.learning.updateSession(sessionID: "ls_1", body: LearningUpdateSessionRequest(userInput: "好的"))) }),
        ("ai.analyze", { _ = try await $0.send(API.learning.aiAnalyze(AIAnalyzeRequest(sessionID: "ls_1", inputText: "我想学习 Swift"))) }),
        ("ai.chat", { _ = try await $0.send(API.learning.aiChat(AIChatRequest(messages: [ChatMessage(role: .user, content: "你好")]))) }),
        ("feedback.submit", { _ = try await $0.send(API.learning.feedbackSubmit(FeedbackSubmitRequest(category: .bug, content: "闪退了一次"))) }),
        ("learning.import-kb", { _ = try await $0.send(API.learning.importKB(LearningImportKBRequest(title: "Swift 笔记", language: "zh", text: "值类型优先"))) }),
        ("learning.update-goals", { _ = try await $0.send(API.learning.updateGoals(LearningGoals(dailyMinutes: 30, weeklySessions: 5))) }),
        ("learning.set-reminder", { _ = try await $0.send(API.learning.setReminder(reminderID: "r_1", body: LearningSetReminderRequest(time: "08:30", weekdays: [1, 3], enabled: true))) }),
        ("push.register", { _ = try await $0.send(API.push.register(PushRegisterRequest(deviceToken: String(repeating: "b2", count: 32), environment: .sandbox))) }),
        ("push.update-settings", { _ = try await $0.send(API.push.updateSettings(PushUpdateSettingsRequest(reply: false))) }),
        ("push.test", { _ = try await $0.send(API.push.test(PushTestRequest(kind: .reply))) }),
        ("user.update-profile", { _ = try await $0.send(API.auth.userUpdateProfile(UserUpdateProfileRequest(bio: "周末爬山"))) }),
        ("user.bind-phone", { _ = try await $0.send(API.auth.userBindPhone(UserBindPhoneRequest(phone: "13900139000", code: "123456"))) }),
        ("user.request-deletion", { _ = try await $0.send(API.auth.userRequestDeletion(UserRequestDeletionRequest(reason: "换号"))) }),
        ("subscriptions.verify", { _ = try await $0.send(API.subscriptions.verify(SubscriptionsVerifyRequest(productID: "vip_monthly", transactionID: "2000000123456789", environment: .sandbox))) }),
        ("payments.create-order", { _ = try await $0.send(API.subscriptions.paymentsCreateOrder(PaymentsCreateOrderRequest(productID: "vip_monthly", channel: .wechat))) }),
        ("upload.policy", { _ = try await $0.send(API.upload.policy(UploadPolicyRequest(contentType: .imageJPEG, size: 204_800, purpose: .avatar))) }),
        ("upload.image", { _ = try await $0.send(API.upload.image(file: FilePart(fileURL: photo, contentType: "image/png"), purpose: .avatar)) }),
    ]

    /// A PNG the upload sends, written for each run: its signature and some bytes, which is all the mock reads of it.
    private static let photo = FileManager.default.temporaryDirectory.appendingPathComponent("accord-exercise-\(UUID().uuidString).png")

    /// In turn, and in each endpoint's order drawn from a seed.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "timing of the retries under the sanitizer"),
          arguments: ["exercise-flows", "exercise-flows-random"])
    func everyFlowOfEachEndpointDrivenIsMetAndKeptTo(_ exercise: String) async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--check-flows", "--scenario", exercise, "--seed", "7"])
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + (0..<100).map { UInt8($0) }).write(to: Self.photo)
        defer { try? FileManager.default.removeItem(at: Self.photo) }
        let api = APIClient(configuration: ClientConfiguration(serverURL: URL(string: server.baseURL)!, appKey: "dev_app_key", appSecret: "dev_app_secret",
                                                               deviceID: "exercise", os: "ios", appVersion: "1.2.0", timeout: 30),
                            storage: InMemoryTokenStorage())
        _ = try await api.send(API.auth.loginPhone(login))
        // Four flows at most per endpoint, each an injected call and a call let through: nine rounds pass every endpoint's turn.
        for _ in 0..<9 {
            for (endpoint, call) in Self.calls {
                do {
                    try await call(api)
                } catch {
                    switch error as? APIError {
                    case .sessionEnded?, .banned?: _ = try await api.send(API.auth.loginPhone(login))
                    case .business(.quota, _, _)?: try await Task.sleep(nanoseconds: 2_100_000_000)
                    case .business?: break
                    default: Issue.record("\(endpoint): \(error)")
                    }
                }
            }
        }
        let flows = try await Control(server: server).call("GET", "report").1?["flows"]
        #expect(flows?["violations"] == .int(0), "\(flows.map { JSONWriter.string($0) } ?? "no flows")")
        guard case .array(let matrix)? = flows?["matrix"] else {
            Issue.record("no matrix")
            return
        }
        let driven = Set(Self.calls.map(\.endpoint))
        let unmet = matrix.compactMap { cell -> String? in
            guard case .string(let endpoint)? = cell["endpoint"], driven.contains(endpoint), cell["declared"] == .bool(true),
                  cell["exercised"] == .int(0), case .string(let flow)? = cell["flow"] else { return nil }
            return "\(endpoint) \(flow)"
        }
        #expect(unmet == [])
        let met = matrix.filter { $0["declared"] == .bool(true) && $0["exercised"] != .int(0) }.count
        print("\(exercise): \(met) of \(flows?["declared"].map { JSONWriter.string($0) } ?? "?") declared pairs met by \(driven.count) endpoints")
        #expect(flows?["exercised"] == .int(met))
        // docs/flows.md gives these figures.
        #expect(driven.count == 61 && met == 217 && flows?["declared"] == .int(217))
        guard case .array(let rules)? = flows?["rules"] else {
            Issue.record("no rules")
            return
        }
        let untested = rules.compactMap { rule -> String? in rule["checked"] == .int(0) ? rule["rule"].map { JSONWriter.string($0) } : nil }
        #expect(rules.count == 12 && untested == [], "rules never put to a request: \(untested)")
    }
}
