import AccordContract
import AccordDiagnostics
import AccordGenerator
import AccordJSON
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordTesting
import Foundation
import Testing
import TongbanAPI

/// The typed fixtures `accord generate` emits from `mocks/` and the contract's examples.
@Suite struct TypedFixtureTests {
    /// Every typed fixture equals what `accord serve` answers for that variant (asked for
    /// with `Prefer: example=NAME`, on a fresh engine at the reference time with seed 0),
    /// decoded into the same type. Issued tokens are random on the server and fixed in the
    /// fixtures, so they alone are left out of the comparison; the refresh is left out
    /// whole, because the server answers it from its token state (1007 for a token it did
    /// not issue), not from a fixture. An upload's answer (or a direct-upload policy's)
    /// names the file the server stored under a random id; its typed fixture names a
    /// stand-in, so those are left out too.
    @Test func everyFixtureEqualsWhatTheServerAnswers() throws {
        let contract = Repository.contract
        #expect(API.fixtureCatalog.count >= 40, "\(API.fixtureCatalog.count) fixtures")
        for entry in API.fixtureCatalog where entry.endpoint != contract.service.auth.refreshEndpoint {
            let endpoint = try #require(contract.endpoint(entry.endpoint))
            let bodyMembers = endpoint.body.flatMap { contract.types.objectFields(of: $0) }?.map(\.name) ?? []
            guard endpoint.multipart == nil, !(bodyMembers.contains("content_type") && bodyMembers.contains("size")) else { continue }
            let request = FixtureSamples.request(for: endpoint)
            var fixture = try EngineFixture(fixturesIn: Repository.mocks)
            #expect(fixture.now == FixtureSamples.referenceTime)
            let response = fixture.handle(fixture.signed(request.method, contract.service.basePath + request.target,
                                                         body: request.body.map { JSONWriter.string($0) },
                                                         headers: [("Prefer", "example=\(entry.name)")]))
            guard response.code == .int(0), let data = response.json?["data"] else {
                Issue.record("\(entry.endpoint) \(entry.name): the server answered \(response.status) \(response.text)")
                continue
            }
            let served = try decodeLike(entry.value, Data(JSONWriter.bytes(data)))
            if !served.isEqual(to: entry.value) {
                let typed = try withoutTokens(JSONReader.read(Array(JSONEncoder().encode(entry.value))))
                let answered = try withoutTokens(JSONReader.read(Array(JSONEncoder().encode(served))))
                #expect(JSONWriter.string(typed, sortedKeys: true) == JSONWriter.string(answered, sortedKeys: true), "\(entry.endpoint) \(entry.name)")
            }
        }
    }

    @Test func fixturesAreTypedValues() {
        let inbox = API.signal.fixtures.inbox.default
        #expect(inbox.items.first?.sender.gender == .male)
        // Pending within a week, the overdue one first.
        #expect(API.learning.fixtures.reviewTasks.week.items.count == 3)
        // The overdue seed's `{{now - 1h}}` at the reference time, 2026-11-30T08:00:00Z.
        #expect(API.learning.fixtures.reviewTasks.week.items.first?.scheduledAt.text == "2026-11-30T07:00:00Z")
    }

    /// The emitted Swift for a response with a nested inline object, an open enum (a
    /// known and an unknown value), a time, a URL, a decimal, a map and an `any`.
    @Test func theEmittedFixtureCode() throws {
        let yaml = """
        domain: shop
        endpoints:
          shop.item:
            route: GET /items/{item_id}
            params: {item_id: string}
            response:
              id: string
              kind: new | used
              seller: {name: string, home: url?}
              listed_at: date-time
              price: decimal
              stock: '{string: int}'
              extra: any
              note: string?
        """
        let outcome = InlineContract.load(domain: yaml, file: "shop.yaml", refresh: "shop.item")
        let contract = try #require(outcome.contract, "\(outcome.diagnostics)")
        let data = try JSONReader.read(Array(#"""
            {"id":"i\"1","kind":"refurbished","seller":{"name":"阿澈"},"listed_at":"2026-11-30T08:00:00Z","price":"9.90",
             "stock":{"S":2},"extra":{"n":9007199254740993,"x":[true,null]}}
            """#.utf8))
        let location = SourceLocation(file: "mocks/shop.yaml", line: 3, column: 5)
        let samples = ["shop.item": [FixtureSample(name: "default", data: data, location: location),
                                     FixtureSample(name: "broken", data: .object([]), location: location)]]
        let generator = SwiftGenerator(contract: contract, access: .internal, samples: samples)
        let file = try #require(generator.files().first { $0.path == "Fixtures/API+ShopFixtures.swift" })
        #expect(file.contents.contains("""
            struct ItemFixtures: Sendable {
                /// `default` (fixture in shop.yaml)
                var `default`: ShopItemResponse {
                    ShopItemResponse(id: "i\\"1", kind: ShopItemResponse.Kind.unknown("refurbished"), seller: ShopItemResponse.Seller(name: "阿澈"), \
        listedAt: AccordDateTime(fixture: "2026-11-30T08:00:00Z"), price: AccordDecimal(fixture: "9.90"), stock: ["S": 2], \
        extra: AccordJSON.object(["n": AccordJSON.integer(9007199254740993), "x": AccordJSON.array([AccordJSON.bool(true), AccordJSON.null])]))
                }

                /// The name of each answer of `shop.item`, for `MockTransport.prefer(_:)` and `MockAPIClient.respond(with:)`.
                var names: Names { Names() }

                struct Names: Sendable {
                    /// `default` (fixture in shop.yaml)
                    var `default`: FixtureName<ShopItemResponse> { FixtureName(endpoint: "shop.item", name: "default") }
                }
            }
        """), "\(file.contents)")
        #expect(generator.diagnostics().map(\.message).contains("fixture 'broken' of 'shop.item' is not typed: its data does not fit the response"))
    }

    private func decodeLike<Value: Codable & Hashable & Sendable>(_ sample: Value, _ data: Data) throws -> any Codable & Hashable & Sendable {
        try JSONDecoder().decode(Value.self, from: data)
    }

    private func withoutTokens(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members):
            .object(members.map { member in
                ["access_token", "refresh_token"].contains(member.key) ? .init(member.key, .string("…")) : .init(member.key, withoutTokens(member.value))
            })
        case .array(let items): .array(items.map(withoutTokens))
        default: value
        }
    }
}

extension Hashable {
    fileprivate func isEqual(to other: any Hashable) -> Bool {
        (other as? Self) == self
    }
}
