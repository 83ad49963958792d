import AccordJSON
import AccordTesting
import Foundation
import Testing
import TongbanAPI

/// The generated client (`Tests/TongbanAPI`) against `accord serve --check-flows
/// --scenario exercise-flows`: calling each of a set of endpoints until every flow the
/// contract declares for it was injected (a refresh's code, a forced logout, a ban, an
/// alert, a reset), as an app's UI tests would, meets each of those cells of the report's
/// matrix and breaks no rule. The driver does what an app does around the client: it
/// logs in again after the session ended or a ban, and does not send a call again within
/// the alert window.
@Suite(.serialized) struct ExerciseFlowsClientTests {
    private let login = AuthLoginPhoneRequest(phone: "13800138000", code: "123456",
                                             deviceInfo: DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0"))

    /// The calls driven: every GET of the seed the client can make without a stored id, and the publish that meets the quota alert.
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
    ]

    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "timing of the retries under the sanitizer"))
    func everyFlowOfEachEndpointDrivenIsMetAndKeptTo() async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--check-flows", "--scenario", "exercise-flows"])
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
        print("exercise-flows: \(met) of \(flows?["declared"].map { JSONWriter.string($0) } ?? "?") declared pairs met by \(driven.count) endpoints")
        #expect(flows?["exercised"] == .int(met))
        // docs/flows.md gives these figures.
        #expect(driven.count == 20 && met == 78 && flows?["declared"] == .int(217))
        guard case .array(let rules)? = flows?["rules"] else {
            Issue.record("no rules")
            return
        }
        let untested = rules.compactMap { rule -> String? in rule["checked"] == .int(0) ? rule["rule"].map { JSONWriter.string($0) } : nil }
        #expect(rules.count == 12 && untested == [], "rules never put to a request: \(untested)")
    }
}
