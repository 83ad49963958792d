import AccordJSON
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import NotesAPI
import Testing

/// The generated client of the plain REST API (`Tests/NotesAPI`, from
/// `Tests/Projects/plain`) against the real `accord serve`: bare answers, errors typed
/// from their HTTP status and problem body, no signing.
@Suite(.serialized) struct PlainClientTests {
    private func server() throws -> ServerProcess {
        try ServerProcess(arguments: ["--quiet"], mocks: Repository.plainMocks, contracts: Repository.plainContracts)
    }

    private func client(_ server: ServerProcess, storage: InMemoryTokenStorage = InMemoryTokenStorage()) -> APIClient {
        APIClient(configuration: ClientConfiguration(serverURL: URL(string: server.baseURL)!), storage: storage)
    }

    private let signIn = API.session.create(SessionCreateRequest(email: "ada@example.com", password: "secret"))

    /// The first event a listener got.
    private func firstEvent(_ events: AsyncStream<ClientEvent>) async -> ClientEvent? {
        for await event in events { return event }
        return nil
    }

    @Test func answersAreTheTypesAndANotFoundIsTyped() async throws {
        let server = try server()
        let storage = InMemoryTokenStorage()
        let api = client(server, storage: storage)
        let session = try await api.send(signIn)
        #expect(session.user == User(uid: 7, name: "Ada"))
        #expect(await storage.load()?.accessToken == session.accessToken)
        #expect(try await api.send(API.notes.list(limit: 5)).items.map(\.id) == ["n_1"])
        #expect(try await api.send(API.notes.get(noteID: "n_42")).id == "n_42")
        #expect(try await api.send(API.notes.status()).ok)
        do {
            _ = try await api.send(API.notes.get(noteID: "n_missing"))
            Issue.record("the call succeeded")
        } catch {
            guard case .business(let code, let message, let body?) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(code == .notFound)
            #expect(message == "no note n_missing")
            #expect(try JSONDecoder().decode(Problem.self, from: body).status == 404)
        }
    }

    @Test func tenConcurrentCallsThroughAnExpiredTokenRefreshOnce() async throws {
        let server = try server()
        let api = client(server)
        _ = try await api.send(signIn)
        try await Control(server: server).call("POST", "tokens/expire", "{}")
        let succeeded = await withTaskGroup(of: Bool.self) { group in
            for _ in 0..<10 { group.addTask { (try? await api.send(API.notes.list())) != nil } }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(succeeded == 10)
        guard case .array(let journal)? = try await Control(server: server).call("GET", "requests").1?["requests"] else {
            Issue.record("no journal")
            return
        }
        #expect(journal.filter { $0["endpoint"] == .string("session.refresh") }.count == 1)
        // Each was answered 401 with the token-expired problem once, then retried with the new token.
        #expect(journal.filter { $0["endpoint"] == .string("notes.list") && $0["status"] == .int(401) }.count == 10)
        #expect(journal.filter { $0["endpoint"] == .string("notes.list") && $0["status"] == .int(200) }.count == 10)
    }

    /// Under `exercise-flows` every notes endpoint meets each flow the plain contract
    /// declares: a 401 that is `token-expired` (refreshed, retried), one that is
    /// `force-logout` (told apart by its problem's `type`), a ban, a 429 alert, a 502.
    /// The client keeps to every rule, and the recorded journal gives the same flows offline.
    @Test func theClientKeepsToEveryFlowOfThePlainAPIsStatuses() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-plain-flows-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let journal = directory.appendingPathComponent("run.jsonl").path
        let server = try ServerProcess(arguments: ["--quiet", "--check-flows", "--scenario", "exercise-flows", "--record", journal],
                                       mocks: Repository.plainMocks, contracts: Repository.plainContracts)
        let api = client(server)
        _ = try await api.send(signIn)
        let calls: [@Sendable (APIClient) async throws -> Void] = [
            { _ = try await $0.send(API.notes.list()) }, { _ = try await $0.send(API.notes.get(noteID: "n_1")) },
            { _ = try await $0.send(API.notes.create(NotesCreateRequest(title: "Groceries", body: "milk"))) },
        ]
        for _ in 0..<9 {
            for call in calls {
                do {
                    try await call(api)
                } catch {
                    switch error as? APIError {
                    case .sessionEnded?, .banned?: _ = try await api.send(signIn)
                    case .business(.quota, _, _)?: try await Task.sleep(nanoseconds: 2_100_000_000)
                    default: Issue.record("\(error)")
                    }
                }
            }
        }
        let flows = try await Control(server: server).call("GET", "report").1?["flows"]
        try await Control(server: server).call("POST", "shutdown")
        _ = server.waitForExit(timeout: 10)
        #expect(flows?["violations"] == .int(0), "\(flows.map { JSONWriter.string($0) } ?? "no flows")")
        guard case .array(let matrix)? = flows?["matrix"] else {
            Issue.record("no matrix")
            return
        }
        let met = matrix.compactMap { cell -> String? in
            guard case .string(let endpoint)? = cell["endpoint"], endpoint.hasPrefix("notes."), cell["declared"] == .bool(true),
                  cell["exercised"] != .int(0), case .string(let flow)? = cell["flow"] else { return nil }
            return "\(endpoint) \(flow)"
        }
        #expect(met == ["notes.create alert", "notes.create ban", "notes.create logout", "notes.create refresh-and-retry",
                        "notes.get ban", "notes.get logout", "notes.get refresh-and-retry", "notes.get retry",
                        "notes.list ban", "notes.list logout", "notes.list refresh-and-retry", "notes.list retry"])
        let offline = directory.appendingPathComponent("offline.json").path
        let check = try ExternalCommand.run(ServerProcess.executable.path, ["check-requests", journal, "--contracts", Repository.plainContracts,
                                                                            "--check-flows", "--report", offline, "--report-format", "json"])
        #expect(check.errors == "", "\(check.errors)")
        #expect(try JSONReader.read(Array(Data(contentsOf: URL(fileURLWithPath: offline))))["flows"] == flows)
    }

    @Test func aBanIsTypedFromItsProblemBody() async throws {
        let server = try server()
        let api = client(server)
        let events = api.events
        do {
            _ = try await api.send(API.session.create(SessionCreateRequest(email: "banned@example.com", password: "secret")))
            Issue.record("the call succeeded")
        } catch {
            guard case .banned(let problem) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(problem == BanProblem(type: "about:blank", title: "Account banned", status: 403, banInfo: BanInfo(reason: "spam")))
        }
        #expect(await firstEvent(events) == .banned(BanProblem(type: "about:blank", title: "Account banned", status: 403, banInfo: BanInfo(reason: "spam"))))
    }

    @Test func aRevokedTokenEndsTheSessionAndAQuotaAlerts() async throws {
        let server = try ServerProcess(arguments: ["--quiet", "--inject", "notes.create=quota"], mocks: Repository.plainMocks,
                                       contracts: Repository.plainContracts)
        let storage = InMemoryTokenStorage()
        let api = client(server, storage: storage)
        let events = api.events
        _ = try await api.send(signIn)
        do {
            _ = try await api.send(API.notes.create(NotesCreateRequest(title: "one more", body: "")))
            Issue.record("the call succeeded")
        } catch {
            guard case .business(.quota, let message, _) = error else {
                Issue.record("\(error)")
                return
            }
            #expect(message == "injected")
        }
        #expect(await firstEvent(events) == .alert(.quota, "injected"))
        try await Control(server: server).call("POST", "users/7/force-logout")
        await #expect(throws: APIError.sessionEnded(.forceLogout)) { try await api.send(API.notes.list()) }
        #expect(await storage.load() == nil)
    }

    @Test func theInProcessMockAnswersAsThePlainServerDoes() async throws {
        let mock = MockTransport()
        let api = APIClient(configuration: .preview, transport: mock)
        _ = try await api.send(signIn)
        await #expect(throws: APIError.business(.notFound, message: "Not found", envelope: Data(#"{"type":"about:blank","title":"Not found","status":404}"#.utf8))) {
            try await api.send(API.notes.get(noteID: "n_missing"))
        }
        await mock.expireTokens()
        #expect(try await api.send(API.notes.list()).items.map(\.id) == ["n_1"], "refreshed once and retried")
        await mock.inject(API.notes.list(), code: .quota)
        await #expect(throws: APIError.self) { try await api.send(API.notes.list()) }
        await mock.forceLogout()
        await #expect(throws: APIError.sessionEnded(.forceLogout)) { try await api.send(API.notes.list()) }
        let codes = await mock.calls.map(\.code)
        #expect(codes == [0, 404, 401, 0, 0, 429, 401])
    }

    /// Entries that share a status are different codes, in sets too.
    @Test func entriesOfOneStatusAreDifferentCodes() {
        #expect(BusinessCode.forceLogout != .tokenExpired)
        #expect(BusinessCode(rawValue: 401) == .forceLogout)
        #expect(Set([BusinessCode.forceLogout, .tokenExpired, .refreshInvalid, BusinessCode(rawValue: 401)]).count == 3)
        #expect(BusinessCode.tokenExpired.rawValue == 401)
    }
}
