import AccordContract
import AccordMock
import AccordSigning
import AccordValidation
import Foundation

/// The repository's contracts with fixtures given inline, and a client that signs
/// requests the way signing.md says.
struct EngineFixture {
    static let contractsDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("contracts").path

    static let contract: Contract = {
        guard let contract = ContractLint.run(directory: contractsDirectory).contract else {
            preconditionFailure("the repository's contracts do not load")
        }
        return contract
    }()

    let engine: MockEngine
    /// The wall clock, frozen for signing and answering: 2026-11-30T08:00:00Z.
    let now: Int64 = 1_796_025_600
    /// A real access token of user 10086.
    let token: String
    private var nonce = 0

    var state: MockState { engine.state }

    init(fixtures yaml: String = "", scenarios: [String: Scenario] = [:], options: MockOptions = MockOptions(), seed: UInt64 = 0) throws {
        let loader = FixtureLoader(contract: Self.contract)
        let (fixtures, diagnostics) = loader.load([ContractLoader.Source(path: "mocks/test.yaml", bytes: Array(yaml.utf8))])
        if diagnostics.containsErrors { throw FixtureProblems(diagnostics: diagnostics.map(\.description)) }
        let state = MockState(clock: MockClock(wall: now), nonceTTLSeconds: 600, seed: seed)
        token = state.tokens.issue(uid: 10086).accessToken
        engine = MockEngine(contract: Self.contract, fixtures: fixtures, scenarios: scenarios, options: options, state: state)
    }

    struct FixtureProblems: Error {
        var diagnostics: [String]
    }

    /// A request signed with `dev_app_key`, carrying the service's required headers.
    /// Which bearer token a request carries.
    enum Bearer {
        /// The fixture's user 10086.
        case fixtureUser
        case none
        case token(String)
    }

    mutating func signed(_ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = [],
                         bearer: Bearer = .fixtureUser, timestamp: Int64? = nil) -> MockRequest {
        let token: String? = switch bearer {
        case .fixtureUser: self.token
        case .none: nil
        case .token(let value): value
        }
        nonce += 1
        let unsigned = MockRequest(method: method, target: target)
        let parsed = body.flatMap { try? JSONReader.read(Array($0.utf8)) }
        let ts = String(timestamp ?? now)
        let nonceText = "nonce-\(nonce)-\(UUID().uuidString.prefix(8))"
        let input = RequestSigner.Input(appKey: "dev_app_key", timestamp: ts, nonce: nonceText,
                                        sortedParams: SortedParams.make(query: unsigned.query, body: parsed))
        let sign = RequestSigner(settings: Self.contract.service.signing).signature(input, secret: "dev_app_secret")
        var all: [(String, String)] = [
            ("X-App-Key", "dev_app_key"), ("X-Timestamp", ts), ("X-Nonce", nonceText), ("X-Sign", sign),
            ("X-Device-Id", "D-1"), ("X-OS", "ios"), ("X-App-Version", "1.2.0"),
        ]
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        if body != nil { all.append(("Content-Type", "application/json")) }
        all += headers
        return MockRequest(method: method, target: target, headers: all, body: Array((body ?? "").utf8))
    }

    func handle(_ request: MockRequest) -> MockResponse {
        engine.handle(request)
    }
}

extension MockResponse {
    /// The body parsed as JSON, or nil.
    var json: JSONValue? { try? JSONReader.read(bodyBytes) }
    var text: String { String(decoding: bodyBytes, as: UTF8.self) }
    var code: JSONValue? { json?["code"] }
}
