import AccordContract
import AccordGenerator
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordTesting
import Foundation
import Testing
import TongbanAPI

/// Typed fixture names: every fixture and example of the repository is a name the compiler
/// checks, `MockTransport` and `MockAPIClient` answer with the one named, and a name an
/// endpoint lacks stops the test listing the names it has.
@Suite struct FixtureNameTests {
    private let tokens = Tokens(accessToken: "preview-access-token", refreshToken: "preview-refresh-token")

    /// Every example of the contract and every fixture of `mocks/` is an answer of its
    /// endpoint's route, but what the in-process mock cannot replay: streams, a binary
    /// endpoint's bytes, and a fixture whose effect the sample request cannot have on a
    /// fresh session's seeds (its answer is the server's state; docs/generator.md).
    @Test func everyFixtureAndExampleIsARoute() throws {
        let outcome = MockProject.load(contracts: Repository.root.appendingPathComponent("contracts").path,
                                       mocks: Repository.root.appendingPathComponent("mocks").path)
        let project = try #require(outcome.project, "\(outcome.diagnostics)")
        let routes = Dictionary(uniqueKeysWithValues: API.mockRoutes.map { ($0.id, Set($0.answers.map(\.name))) })
        var names = 0
        var stateful: [String] = []
        for endpoint in project.contract.endpoints where endpoint.binary == nil {
            let fixtures = project.fixtures.fixtures(for: endpoint.id).filter { $0.events == nil }
            let written = Set(endpoint.examples.map(\.name) + fixtures.map(\.name))
            let missing = written.subtracting(routes[endpoint.id] ?? [])
            let effectful = Set(fixtures.filter { !$0.effects.isEmpty }.map(\.name))
            #expect(missing.isSubset(of: effectful), "\(endpoint.id): \(missing.subtracting(effectful).sorted())")
            stateful += missing.map { "\(endpoint.id) \($0)" }
            names += written.count - missing.count
        }
        #expect(names >= 140, "\(names) names")
        #expect(stateful.count <= 6, "\(stateful.sorted())")
    }

    @Test func preferTakesATypedNameOfAValueOrARefusal() async throws {
        let mock = MockTransport(session: tokens)
        let api = APIClient(configuration: .preview, storage: InMemoryTokenStorage(tokens), transport: mock)
        await mock.prefer(API.signal.fixtures.inbox.names.lastPage)
        #expect(try await api.send(API.signal.inbox(limit: 5)) == API.signal.fixtures.inbox.lastPage)
        // A refusal no matcher would reach: only by its name.
        await mock.prefer(API.learning.fixtures.lessons.names.unknownPath)
        do {
            _ = try await api.send(API.learning.lessons(pathID: "lp_1"))
            Issue.record("the refusal was not answered")
        } catch {
            guard case .business(.notFound, "内容不存在", _) = error else {
                Issue.record("\(error)")
                return
            }
        }
        #expect(await mock.calls.map { "\($0.endpoint ?? "-") \($0.code ?? -1)" } == ["signal.inbox 0", "learning.lessons 5001"])
    }

    @Test func theMockClientAnswersWithANamedFixture() async throws {
        let api = MockAPIClient()
        await api.respond(with: API.signal.fixtures.inbox.names.unread)
        #expect(try await api.send(API.signal.inbox()) == API.signal.fixtures.inbox.unread)
        await api.respond(with: API.learning.fixtures.lessons.names.unknownPath)
        do {
            _ = try await api.send(API.learning.lessons(pathID: "lp_1"))
            Issue.record("the refusal was not thrown")
        } catch {
            #expect(error == .business(.notFound, message: "内容不存在", envelope: nil))
        }
    }

    /// A string name the endpoint lacks is no silent fall back to its default: the test
    /// process stops, saying which names there are.
    @Test func anUnknownNameStopsTheTest() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let mock = MockTransport()
            await mock.prefer(API.signal.inbox(), "lastpage")
        }
        let errors = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
        #expect(errors.contains("MockTransport.prefer: signal.inbox has no fixture or example 'lastpage'; it has 'last-page', "
                                + "'flash-only', 'unread', 'first-page', 'default'"), "\(errors)")
        await #expect(processExitsWith: .failure) {
            await MockAPIClient().respond(with: FixtureName<SignalInbox>(endpoint: "signal.inbox", name: "nope"))
        }
    }

    /// A refusal the contract gives as an example is a named answer (`Prefer: example=gone`
    /// on the server), and its name is typed by the endpoint's response.
    @Test func aContractRefusalIsANamedAnswer() throws {
        let yaml = """
        domain: shop
        endpoints:
          shop.item:
            route: GET /items/{item_id}
            params: {item_id: string}
            response: {id: string}
            codes: [1000]
            examples:
              found:
                params: {item_id: i1}
                response: {id: i1}
              gone:
                params: {item_id: i2}
                code: 1000
        """
        let service = "service:\n  name: s\ncodes:\n  1000: {name: gone, msg: no such item, http: 404}\n"
        let outcome = ContractLoader().load([.init(path: "contracts/service.yaml", bytes: Array(service.utf8)),
                                             .init(path: "contracts/shop.yaml", bytes: Array(yaml.utf8))], directory: "contracts")
        let contract = try #require(outcome.contract, "\(outcome.diagnostics)")
        let samples = FixtureSamples(contract: contract, fixtures: FixtureSet()).byEndpoint
        let files = SwiftGenerator(contract: contract, access: .internal, samples: samples).files()
        let fixtures = try #require(files.first { $0.path == "Fixtures/API+ShopFixtures.swift" }).contents
        #expect(fixtures.contains("""
                struct Names: Sendable {
                    /// `found` (example in shop.yaml)
                    var found: FixtureName<ShopItemResponse> { FixtureName(endpoint: "shop.item", name: "found") }
                    /// `gone` (example in shop.yaml: code 1000)
                    var gone: FixtureName<ShopItemResponse> { FixtureName(endpoint: "shop.item", name: "gone") }
                }
        """), "\(fixtures)")
        let catalog = try #require(files.first { $0.path == "Endpoints/API+Catalog.swift" }).contents
        #expect(catalog.contains(#"answers.append(MockRoute.Answer(name: "gone", role: .named, code: 1000, message: nil))"#), "\(catalog)")
    }
}
