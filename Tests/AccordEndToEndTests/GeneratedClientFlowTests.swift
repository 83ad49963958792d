import AccordJSON
import AccordTesting
import Foundation
import Testing
import TongbanAPI

/// The generated client (`Tests/TongbanAPI`) through every flow of the contract against
/// `accord serve --check-flows`: ten calls meeting 1002 at once, 1005, a forced logout
/// (1006), a quota alert (3008), a ban (1008), a refused refresh (1007), a forced logout
/// while a refresh's answer is on its way, and a reset and an empty reply retried by the
/// contract's policy. The server's report must show each flow met and not one violation.
@Suite(.serialized) struct GeneratedClientFlowTests {
    private let login = AuthLoginPhoneRequest(phone: "13800138000", code: "123456",
                                             deviceInfo: DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0"))

    /// How many refreshes the server has journaled.
    private static func refreshes(_ control: Control) async throws -> Int {
        guard case .array(let entries)? = try await control.call("GET", "requests?endpoint=auth.refresh").1?["requests"] else { return 0 }
        return entries.count
    }

    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "timing of concurrent calls under the sanitizer"))
    func theGeneratedClientKeepsToEveryFlow() async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--check-flows", "--refresh-ttl", "1h"])
        let control = Control(server: server)
        let api = APIClient(configuration: ClientConfiguration(serverURL: URL(string: server.baseURL)!, appKey: "dev_app_key", appSecret: "dev_app_secret",
                                                               deviceID: "flow-client", os: "ios", appVersion: "1.2.0", timeout: 30),
                            storage: InMemoryTokenStorage())
        _ = try await api.send(API.auth.loginPhone(login))
        try await control.call("POST", "tokens/expire", "{}")
        let inboxes = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 { group.addTask { (try? await api.send(API.signal.inbox())) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(inboxes == 10)
        try await control.call("POST", "tokens/invalidate", "{}")
        _ = try await api.send(API.auth.userMe())
        try await control.call("POST", "rules", #"{"match": {"endpoint": "signal.publish"}, "respond": {"code": 3008}, "times": 1}"#)
        _ = try? await api.send(API.signal.publish(SignalPublishRequest(content: "第 21 条", isFlash: false)))
        try await control.call("POST", "users/10086/force-logout")
        _ = try? await api.send(API.auth.userMe())
        _ = try await api.send(API.auth.loginPhone(login))
        try await control.call("POST", "users/10086/ban", #"{"reason": "flow test"}"#)
        _ = try? await api.send(API.signal.inbox())
        try await control.call("DELETE", "users/10086/ban")
        _ = try await api.send(API.auth.loginPhone(login))
        try await control.call("POST", "clock", #"{"advance": "2h"}"#)
        _ = try? await api.send(API.signal.quota())
        // 1006 during a refresh: the refresh's answer is held 1.5 s, and the user is logged out once the server has rotated
        // the tokens (the refresh is in the journal) while the answer is on its way. The retry with the new tokens meets
        // 1006 and the session ends; nothing is sent with a token after that.
        _ = try await api.send(API.auth.loginPhone(login))
        try await control.call("POST", "rules", #"{"match": {"endpoint": "auth.refresh"}, "fault": "latency:1500ms", "times": 1}"#)
        try await control.call("POST", "tokens/expire", "{}")
        let refreshes = try await Self.refreshes(control)
        async let during = api.send(API.signal.quota())
        var polls = 0
        while try await Self.refreshes(control) == refreshes, polls < 250 {
            polls += 1
            try await Task.sleep(nanoseconds: 20_000_000)
        }
        try await control.call("POST", "users/10086/force-logout")
        do {
            _ = try await during
            Issue.record("the call succeeded with tokens revoked during their refresh")
        } catch {
            #expect(error as? APIError == .sessionEnded(.forceLogout))
        }
        // Faults: the inbox's GET is retried after a reset and then an empty reply, 200 ms and then 400 ms later.
        _ = try await api.send(API.auth.loginPhone(login))
        try await control.call("POST", "rules", #"{"match": {"endpoint": "signal.inbox"}, "fault": "reset", "times": 1}"#)
        try await control.call("POST", "rules", #"{"match": {"endpoint": "signal.inbox"}, "fault": "empty", "times": 1}"#)
        let page = try await api.send(API.signal.inbox())
        #expect(!page.items.isEmpty)

        let flows = try await control.call("GET", "report").1?["flows"]
        #expect(flows?["violations"] == .int(0), "\(flows.map { JSONWriter.string($0) } ?? "no flows")")
        guard case .array(let matrix)? = flows?["matrix"] else {
            Issue.record("no matrix")
            return
        }
        let met = Set(matrix.compactMap { cell -> String? in
            guard case .string(let endpoint)? = cell["endpoint"], case .string(let flow)? = cell["flow"] else { return nil }
            return "\(endpoint) \(flow)"
        })
        #expect(met.isSuperset(of: ["signal.inbox refresh-and-retry", "user.me refresh-and-retry", "signal.publish alert", "user.me logout",
                                    "signal.inbox ban", "signal.quota refresh-and-retry", "auth.refresh logout", "signal.inbox retry"]), "\(met.sorted())")
        let retried = matrix.first { $0["endpoint"] == .string("signal.inbox") && $0["flow"] == .string("retry") }?["exercised"]
        #expect(retried == .int(2))
    }
}
