import AccordContract
import AccordDiagnostics
import AccordHTTP
import AccordJSON
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordSigning
import AccordValidation
import Foundation

/// An engine on a contract (the repository's by default) with fixtures given inline,
/// a frozen clock, a real access token, and a client that signs requests the way
/// docs/signing.md says.
public struct EngineFixture {
    public let engine: MockEngine
    /// The wall clock, frozen for signing and answering: 2026-11-30T08:00:00Z.
    public let now: Int64 = 1_796_025_600
    /// A real access token of user 10086.
    public let token: String
    private var nonce = 0

    public var state: MockState { engine.state }

    /// - Parameters:
    ///   - yaml: fixtures given inline.
    ///   - directory: a fixture directory to load instead, such as ``Repository/mocks`` (with its `collections/`).
    ///   - collections: collection files given inline, by name (`signals` → `collections/signals.yaml`).
    ///   - storage: the storage to serve from, made over the driver's own (``StorageDriver/forEngines``, whose tokens already hold ``token``).
    public init(contract: Contract = Repository.contract, fixtures yaml: String = "", fixturesIn directory: String? = nil,
                collections: [String: String] = [:], scenarios: [String: Scenario] = [:], options: MockOptions = MockOptions(),
                seed: UInt64 = 0, storage: ((any MockStorage) -> any MockStorage)? = nil) throws {
        let (definitions, collectionDiagnostics) = try Self.collections(collections, directory: directory, contract: contract)
        if collectionDiagnostics.containsErrors { throw FixtureProblems(diagnostics: collectionDiagnostics.map(\.description)) }
        let loader = FixtureLoader(contract: contract, collections: definitions)
        let (fixtures, diagnostics) = directory.map { loader.load(directory: $0) }
            ?? loader.load([ContractLoader.Source(path: "mocks/test.yaml", bytes: Array(yaml.utf8))])
        if diagnostics.containsErrors { throw FixtureProblems(diagnostics: diagnostics.map(\.description)) }
        let wall = now
        let memory = try MockState(seed: seed) { random in try StorageDriver.forEngines.make(wall: wall, random: random) }
        token = try memory.tokens.issue(uid: 10086).accessToken
        let state = storage.map { MockState(storage: $0(memory.storage), seed: seed) } ?? memory
        engine = MockEngine(contract: contract, fixtures: fixtures, scenarios: scenarios, collections: definitions, options: options, state: state)
    }

    private static func collections(_ files: [String: String], directory: String?,
                                     contract: Contract) throws -> ([String: CollectionDefinition], [Diagnostic]) {
        let loader = CollectionLoader(contract: contract)
        if let directory { return loader.load(directory: (directory as NSString).appendingPathComponent("collections")) }
        guard !files.isEmpty else { return ([:], []) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-collections-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, text) in files { try text.write(to: folder.appendingPathComponent(name + ".yaml"), atomically: true, encoding: .utf8) }
        return loader.load(directory: folder.path)
    }

    /// The inline fixtures do not load.
    public struct FixtureProblems: Error {
        public var diagnostics: [String]
    }

    /// Which bearer token a request carries.
    public enum Bearer {
        /// The fixture's user 10086.
        case fixtureUser
        case none
        case token(String)
    }

    /// A request signed with `dev_app_key`, carrying the service's required headers.
    public mutating func signed(_ method: String, _ target: String, body: String? = nil, headers: [(String, String)] = [],
                                bearer: Bearer = .fixtureUser, timestamp: Int64? = nil) -> MockRequest {
        let token: String? = switch bearer {
        case .fixtureUser: self.token
        case .none: nil
        case .token(let value): value
        }
        nonce += 1
        var all = TestSigner.headers(target: target, body: body, timestamp: timestamp ?? now,
                                     nonce: "nonce-\(nonce)-\(UUID().uuidString.prefix(8))") + TestSigner.serviceHeaders
        if let token { all.append(("Authorization", "Bearer \(token)")) }
        if body != nil { all.append(("Content-Type", "application/json")) }
        all += headers
        return MockRequest(method: method, target: target, headers: all, body: Array((body ?? "").utf8))
    }

    public func handle(_ request: MockRequest) -> MockResponse {
        engine.handle(request)
    }
}

extension MockResponse {
    public var text: String { String(decoding: bodyBytes, as: UTF8.self) }
    /// The envelope's `code`.
    public var code: JSONValue? { json?["code"] }
}
