import Foundation
import Testing
import TongbanAPI

/// The generated client over the generated in-process `MockTransport`: fixtures, token
/// state and the flows, with no server and no port.
@Suite struct MockTransportTests {
    private let tokens = Tokens(accessToken: "preview-access-token", refreshToken: "preview-refresh-token")

    private func client(_ mock: MockTransport, configuration: ClientConfiguration = .preview) -> APIClient {
        APIClient(configuration: configuration, storage: InMemoryTokenStorage(tokens), transport: mock)
    }

    @Test func theDefaultFixtureOrThePreferredOne() async throws {
        let api = APIClient.preview
        // The fixture marked `default: true` in mocks/signal.yaml, as the server answers.
        #expect(try await api.send(API.signal.inbox()) == API.signal.fixtures.inbox.firstPage)
        let mock = MockTransport(session: tokens)
        await mock.prefer(API.signal.inbox(), "last-page")
        #expect(try await client(mock).send(API.signal.inbox(limit: 5)) == API.signal.fixtures.inbox.lastPage)
        #expect(try await client(mock).send(API.signal.detail(signalID: "sg_7f3a")) == API.signal.fixtures.detail.found)
    }

    /// The fixtures' `when:` matchers, on the query, the body (by JSON pointer, with a
    /// regular expression) and the path, as the server evaluates them.
    @Test func anUploadIsSignedOverItsTextPartsAndAnswersItsFixture() async throws {
        let mock = MockTransport(session: tokens)
        let api = client(mock)
        let photo = FileManager.default.temporaryDirectory.appendingPathComponent("accord-mock-upload-\(UUID().uuidString).png")
        try Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]).write(to: photo)
        defer { try? FileManager.default.removeItem(at: photo) }
        let uploaded = try await api.send(API.upload.image(file: FilePart(fileURL: photo, contentType: "image/png"), purpose: .evidence))
        #expect(uploaded == API.upload.fixtures.image.stored)
        #expect(await mock.calls.map { "\($0.endpoint ?? "-") \($0.code ?? -1)" } == ["upload.image 0"])
    }

    @Test func matchersPickTheFixtureAsTheServerDoes() async throws {
        let mock = MockTransport(session: tokens)
        let api = client(mock)
        #expect(try await api.send(API.signal.inbox(filter: .flash)) == API.signal.fixtures.inbox.flashOnly)
        #expect(try await api.send(API.signal.inbox(filter: .unread)) == API.signal.fixtures.inbox.unread)
        do {
            _ = try await api.send(API.signal.publish(SignalPublishRequest(content: "配额测试", isFlash: false)))
            Issue.record("the body matcher did not pick the quota fixture")
        } catch {
            guard case .business(.quota, _, _) = error else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(await mock.calls.map(\.code) == [0, 0, 3008])
    }

    @Test func anExpiredTokenIsRefreshedAndTheCallRetried() async throws {
        let mock = MockTransport(session: tokens)
        let storage = InMemoryTokenStorage(tokens)
        let api = APIClient(configuration: .preview, storage: storage, transport: mock)
        await mock.expireTokens()
        _ = try await api.send(API.signal.quota())
        #expect(await mock.calls.map { "\($0.endpoint ?? "-") \($0.code ?? -1)" } == ["signal.quota 1002", "auth.refresh 0", "signal.quota 0"])
        #expect(await storage.load() == Tokens(accessToken: "mock-access-1", refreshToken: "mock-refresh-1"))
        // The old refresh token was rotated away.
        await mock.expireTokens()
        await storage.save(tokens)
        await #expect(throws: APIError.sessionEnded(.refreshInvalid)) { try await api.send(API.signal.quota()) }
    }

    @Test func banQuotaForcedLogoutAndFaults() async throws {
        let mock = MockTransport(session: tokens)
        let api = client(mock)
        let info = BanNotice(banInfo: BanInfo(reason: "违规内容", appealURL: URL(fixture: "https://example.com/appeal")))
        await mock.ban(info)
        await #expect(throws: APIError.banned(info)) { try await api.send(API.signal.quota()) }
        await mock.unban()
        await mock.inject(API.signal.publish(SignalPublishRequest(content: "", isFlash: false)), code: .quota)
        do {
            _ = try await api.send(API.signal.publish(SignalPublishRequest(content: "你好", isFlash: false)))
            Issue.record("the injected quota was not answered")
        } catch {
            guard case .business(.quota, let message, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message == "今日信号已达上限")
        }
        await mock.fail(API.signal.quota(), with: URLError(.notConnectedToInternet))
        await #expect(throws: APIError.offline) { try await api.send(API.signal.quota()) }
        await mock.recover(API.signal.quota())
        await mock.forceLogout()
        await #expect(throws: APIError.sessionEnded(.forceLogout)) { try await api.send(API.signal.quota()) }
    }

    @Test func aBusinessCodeVariantAndInvalidatedTokens() async throws {
        let mock = MockTransport(session: tokens)
        let api = client(mock)
        let device = DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0")
        // Its `when: {body: {code: '000000'}}` picks it, as on the server.
        let wrongCode = API.auth.loginPhone(AuthLoginPhoneRequest(phone: "13800138000", code: "000000", deviceInfo: device))
        do {
            _ = try await api.send(wrongCode)
            Issue.record("the preferred refusal was not answered")
        } catch {
            guard case .business(.smsCodeInvalid, _, _) = error else {
                Issue.record("\(error)")
                return
            }
        }
        await mock.invalidateTokens()
        _ = try await api.send(API.signal.quota())
        #expect(await mock.calls.suffix(3).map { "\($0.endpoint ?? "-") \($0.code ?? -1)" } == ["signal.quota 1005", "auth.refresh 0", "signal.quota 0"])
    }

    @Test func aWrongSignatureIsRefusedAsTheServerWould() async throws {
        var configuration = ClientConfiguration.preview
        configuration.appSecret = "not-the-secret"
        let mock = MockTransport(session: tokens)
        do {
            _ = try await client(mock, configuration: configuration).send(API.signal.quota())
            Issue.record("a wrong signature was accepted")
        } catch {
            guard case .business(.signatureInvalid, _, _) = error else {
                Issue.record("\(error)")
                return
            }
        }
    }

    @Test func aLoginIssuesTokensTheNextCallsUse() async throws {
        let mock = MockTransport()
        let storage = InMemoryTokenStorage()
        let api = APIClient(configuration: .preview, storage: storage, transport: mock)
        let device = DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0")
        let session = try await api.send(API.auth.loginPhone(AuthLoginPhoneRequest(phone: "13800138000", code: "123456", deviceInfo: device)))
        #expect(session.accessToken == "mock-access-1")
        #expect(session.user == API.auth.fixtures.loginPhone.returningUser.user)
        #expect(try await api.send(API.signal.quota()) == API.signal.fixtures.quota.plenty)
    }
}
