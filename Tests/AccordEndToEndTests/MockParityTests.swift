import AccordJSON
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TongbanAPI

/// One source of truth: the same sequence of calls, token expiry and a ban included,
/// through the generated client to `accord serve` and to the in-process `MockTransport`,
/// gives the same decoded answers and the same flow.
@Suite struct MockParityTests {
    /// What a client saw for each step, comparable across the two backends.
    private struct Trace: Equatable {
        var answers: [String] = []
    }

    private let login = AuthLoginPhoneRequest(phone: "13800138000", code: "123456",
                                             deviceInfo: DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0"))
    private let ban = BanNotice(banInfo: BanInfo(reason: "违规内容", until: AccordDateTime(fixture: "2026-12-31T00:00:00Z"),
                                                  appealURL: URL(fixture: "https://example.com/appeal")))

    /// Runs the sequence; `expire` and `banUser` act on the backend between steps, and
    /// `rewind` puts its clock back to the reference time before each call.
    private func run(_ api: APIClient, rewind: () async throws -> Void = {}, expire: () async throws -> Void,
                     banUser: () async throws -> Void) async throws -> Trace {
        var trace = Trace()
        func record(_ step: String, _ value: some Encodable) async throws {
            // Times to the minute: the server's clock may tick a second between the rewind and the answer.
            let text = String(decoding: try RequestSigner.canonicalBody(value), as: UTF8.self)
                .replacingOccurrences(of: #"(\d{4}-\d\d-\d\dT\d\d:\d\d):\d\d"#, with: "$1", options: .regularExpression)
            trace.answers.append(step + " " + text)
            try await rewind()
        }
        try await rewind()
        var session = try await api.send(API.auth.loginPhone(login))
        session.accessToken = ""
        session.refreshToken = ""
        try await record("login", session)
        try await record("inbox", try await api.send(API.signal.inbox(limit: 20)))
        try await record("inbox flash", try await api.send(API.signal.inbox(filter: .flash)))
        try await record("detail", try await api.send(API.signal.detail(signalID: "sg_7f3a")))
        try await record("quota", try await api.send(API.signal.quota()))
        try await expire()
        try await record("quota after expiry", try await api.send(API.signal.quota()))
        try await banUser()
        do {
            _ = try await api.send(API.signal.quota())
            trace.answers.append("quota after ban: answered")
        } catch {
            trace.answers.append("quota after ban: \(error)")
        }
        return trace
    }

    @Test func theServerAndTheInProcessMockAnswerAlike() async throws {
        let server = try ServerProcess(arguments: ["--quiet"])
        let control = Control(server: server)
        let served = APIClient(configuration: ClientConfiguration(serverURL: URL(string: server.baseURL)!, appKey: "dev_app_key",
                                                                  appSecret: "dev_app_secret", deviceID: "parity", os: "ios", appVersion: "1.2.0"))
        // The fixtures are rendered at the reference time; the server's mock clock goes back there before each call.
        let serverTrace = try await run(served, rewind: {
            try await control.call("POST", "clock", #"{"set": 1796025600}"#)
        }, expire: {
            try await control.call("POST", "tokens/expire", "{}")
        }, banUser: {
            try await control.call("POST", "users/10086/ban", #"{"reason": "违规内容", "until": "2026-12-31T00:00:00Z", "appeal_url": "https://example.com/appeal"}"#)
        })

        let mock = MockTransport()
        let inProcess = APIClient(configuration: .preview, transport: mock)
        let mockTrace = try await run(inProcess, expire: { await mock.expireTokens() }, banUser: { await mock.ban(ban) })

        #expect(mockTrace.answers.count == serverTrace.answers.count)
        for (mocked, served) in zip(mockTrace.answers, serverTrace.answers) {
            #expect(mocked == served)
        }
        // The same flow: the expired token was refreshed once and the call retried.
        #expect(await mock.calls.map { "\($0.endpoint ?? "-") \($0.code ?? -1)" }.suffix(4)
                == ["signal.quota 1002", "auth.refresh 0", "signal.quota 0", "signal.quota 1008"])
    }
}
