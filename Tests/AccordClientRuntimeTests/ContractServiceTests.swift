import AccordClientRuntime
import Foundation
import Testing

/// The client and the in-process mock on their own, over a contract this test declares
/// (``Notes``): what they need of a contract comes through `AccordContractService`
/// alone, as the generated `Service` gives it. Signed requests, the envelope, a
/// business code with its alert, a ban with its payload, and an expired token refreshed
/// once and the call retried.
@Suite struct ContractServiceTests {
    typealias Client = AccordAPIClient<Notes>
    typealias Mock = AccordMockTransport<Notes>

    private static let session = Tokens(accessToken: "start-access", refreshToken: "start-refresh")

    private func client(_ mock: Mock, storage: InMemoryTokenStorage = InMemoryTokenStorage(session)) -> Client {
        Client(configuration: .preview, storage: storage, transport: mock)
    }

    @Test func aSignedCallIsAnsweredFromTheRoutesThroughTheEnvelope() async throws {
        let mock = Mock(session: Self.session)
        let note = try await client(mock).send(Notes.note(id: "n/1"))
        #expect(note == Note(id: "n1", text: "一条笔记"))
        // The mock checked X-Sign with the contract's secret and the bearer token before answering.
        let calls = await mock.calls
        #expect(calls.map(\.endpoint) == ["notes.get"] && calls.map(\.code) == [0], "\(calls)")
    }

    @Test func aCodeWithAnAlertFlowIsTheErrorAndAnEvent() async throws {
        let mock = Mock(session: Self.session)
        let api = client(mock)
        let events = api.events
        await mock.inject(Notes.note(id: "n1"), code: Notes.Code(rawValue: 3008))
        await #expect(throws: Client.APIError.business(Notes.Code(rawValue: 3008), message: "今日已达上限", envelope: nil)) {
            // The envelope is kept in the error; compare without it.
            do { _ = try await api.send(Notes.note(id: "n1")) } catch { throw Self.withoutEnvelope(error) }
        }
        #expect(await Self.first(of: events) == .alert(Notes.Code(rawValue: 3008), "今日已达上限"))
    }

    @Test func aBanCarriesItsPayloadAndTellsTheApp() async throws {
        let mock = Mock(session: Self.session)
        let api = client(mock)
        let events = api.events
        await mock.ban(Notes.Ban(reason: "spam"))
        await #expect(throws: Client.APIError.banned(Notes.Ban(reason: "spam"))) { _ = try await api.send(Notes.note(id: "n1")) }
        #expect(await Self.first(of: events) == .banned(Notes.Ban(reason: "spam")))
    }

    @Test func anExpiredTokenIsRefreshedOnceAndTheCallRetried() async throws {
        let mock = Mock(session: Self.session)
        let storage = InMemoryTokenStorage(Self.session)
        await mock.expireTokens()
        let note = try await client(mock, storage: storage).send(Notes.note(id: "n1"))
        #expect(note.id == "n1")
        #expect(await mock.calls.map(\.endpoint) == ["notes.get", "auth.refresh", "notes.get"])
        #expect(await mock.calls.map(\.code) == [1002, 0, 0])
        #expect(await storage.load() == Tokens(accessToken: "mock-access-1", refreshToken: "mock-refresh-1"))
    }

    /// The first event told, or nil when none comes within five seconds (a failing test
    /// ends instead of waiting).
    private static func first(of events: AsyncStream<Client.ClientEvent>) async -> Client.ClientEvent? {
        await withTaskGroup(of: Client.ClientEvent?.self) { group in
            group.addTask { await events.first { _ in true } }
            group.addTask {
                try? await Task.sleep(nanoseconds: 5_000_000_000)
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    private static func withoutEnvelope(_ error: any Error) -> any Error {
        guard case Client.APIError.business(let code, let message, _)? = error as? Client.APIError else { return error }
        return Client.APIError.business(code, message: message, envelope: nil)
    }
}

/// A note, the one model of the test's contract.
struct Note: Codable, Hashable, Sendable {
    var id: String
    var text: String
}

/// A contract of one endpoint, `GET /v1/notes/{id}`, signed, with bearer tokens that a
/// refresh endpoint rotates, in the `{code, msg, data}` envelope.
enum Notes: AccordContractService {
    typealias BanPayload = Ban
    typealias RefreshResponse = Issued

    struct Code: AccordBusinessCode {
        var rawValue: Int
        init(rawValue: Int) { self.rawValue = rawValue }
    }

    struct Ban: Codable, Hashable, Sendable {
        var reason: String
    }

    struct Configuration: AccordClientConfiguration {
        var serverURL = URL(fileURLWithPath: "/").deletingLastPathComponent()
        var appKey = "notes-app"
        var appSecret = "notes-secret"
        var timeout: TimeInterval = 5
        var retryPolicy = RetryPolicy.never
        static var preview: Configuration {
            var configuration = Configuration()
            configuration.serverURL = URL(string: "https://notes.invalid")!
            return configuration
        }
        func headers(requiresAuth: Bool) -> [(String, String)] { [] }
        func queryItems(requiresAuth: Bool) -> [QueryItem] { [] }
    }

    /// The refresh call's answer, in the contract's snake_case.
    struct Issued: Codable, Sendable, TokenIssuing {
        var accessToken: String
        var refreshToken: String
        var issuedTokens: Tokens { Tokens(accessToken: accessToken, refreshToken: refreshToken) }

        enum CodingKeys: String, CodingKey {
            case accessToken = "access_token", refreshToken = "refresh_token"
        }
    }

    static func note(id: String) -> Endpoint<Note> {
        Endpoint(id: "notes.get", method: .get, path: Endpoint<Note>.joinedPath("/notes/", Endpoint<Note>.segment(id)), requiresAuth: true)
    }

    static let basePath = "/v1"
    static let usesEnvelope = true
    static let envelopeCode = "code"
    static let envelopeMessage = "msg"
    static let envelopeData = "data"
    static let errorMediaType = "application/json"
    static let appKeyHeader = "X-App-Key"
    static let timestampHeader = "X-Timestamp"
    static let nonceHeader = "X-Nonce"
    static let signatureHeader = "X-Sign"
    static let apps = ["notes-app": "notes-secret"]
    static let unsignedEndpoints: Set<String> = []
    static let signatureInvalidCode = Code(rawValue: 1001)
    static let usesTokens = true
    static let authHeader = "Authorization"
    static let authScheme = "Bearer"
    static let apiKeyHeader: String? = nil
    static let apiKeyQuery: String? = nil
    static let apiKeys: Set<String> = []
    static let refreshFailedCode = Code(rawValue: 1007)
    static let tokenExpiredCode = Code(rawValue: 1002)
    static let tokenInvalidCode = Code(rawValue: 1005)
    static let forceLogoutCode = Code(rawValue: 1006)
    static let bannedCode = Code(rawValue: 1008)
    static let loginEndpoints: Set<String> = []
    static let refreshEndpoint = "auth.refresh"
    static var mockRoutes: [MockRoute] {
        [
            MockRoute(id: "notes.get", method: .get, path: "/notes/{id}", requiresAuth: true, answers: [
                MockRoute.Answer(name: "default", role: .fallback) { Note(id: "n1", text: "一条笔记") },
            ]),
            MockRoute(id: "auth.refresh", method: .post, path: "/auth/refresh", requiresAuth: false, answers: [
                MockRoute.Answer(name: "default", role: .fallback) { Issued(accessToken: "a", refreshToken: "r") },
            ]),
        ]
    }

    static func message(_ code: Code) -> String { code.rawValue == 3008 ? "今日已达上限" : "" }
    static func errorCode(status: Int, body: Data) -> Code? { nil }
    static func discriminator(_ code: Code) -> (member: String, value: String)? { nil }
    static func refreshesAndRetries(_ code: Code) -> Bool { code.rawValue == 1002 }
    static func endsSession(_ code: Code) -> Bool { [1005, 1006, 1007].contains(code.rawValue) }
    static func bans(_ code: Code) -> Bool { code.rawValue == 1008 }
    static func alerts(_ code: Code) -> Bool { code.rawValue == 3008 }

    static func refresh(_ refreshToken: String) -> Endpoint<Issued>? {
        struct Body: Encodable, Sendable {
            var refresh_token: String
        }
        return Endpoint(id: "auth.refresh", method: .post, path: "/auth/refresh", body: Body(refresh_token: refreshToken), requiresAuth: false)
    }
}
