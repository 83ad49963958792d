import AccordContract
import AccordDiagnostics
import AccordHTTP
import AccordJSON
import AccordMocksFormat
import Foundation

/// Every success answer of every endpoint as plain JSON, rendered once, the same on
/// every run: for code that turns them into typed values (`accord generate`'s fixtures).
///
/// Each sample is rendered as the server would answer it at ``referenceTime`` on a fresh
/// state with seed 0 (so `{{now + 2h}}`, `{{seq}}`, `{{random …}}` and `{{uuid}}` are
/// fixed), for the request of the endpoint's first example that has one (its path
/// parameters, query and body), else for a request whose path parameters are their
/// names. A login or refresh answer issues the fixed tokens ``previewTokens``. A fixture
/// with effects acts on the seeds of a fresh session, as user ``previewUser``. What a
/// server signs (an upload policy's `sig`, a page cursor's tag) is signed by
/// ``StandInSigner``: 32 zeros, as a stand-in file's id, and no cryptography needed.
public struct FixtureSamples: Sendable {
    /// 2026-11-30T08:00:00Z.
    public static let referenceTime: Int64 = 1_796_025_600
    /// What `{{issued.…}}` renders to.
    public static let previewTokens = TokenPair(accessToken: "preview-access-token", refreshToken: "preview-refresh-token",
                                                      accessExpiresIn: 7_200, refreshExpiresIn: 2_592_000)
    /// What `{{user}}` renders to: the user of the phone login fixture (mocks/auth.yaml).
    public static let previewUser = 10086

    /// Samples by endpoint id, in the order the server tries them (docs/mocks.md): the
    /// fixtures that are not the default, highest `priority` first, then the default
    /// fixture, then the contract's success examples whose names no fixture took, then its
    /// error examples whose names no fixture took (answered only when named).
    /// Streamed fixtures are left out.
    public let byEndpoint: [String: [FixtureSample]]

    public init(contract: Contract, fixtures: FixtureSet, collections: [String: CollectionDefinition] = [:]) {
        var samples: [String: [FixtureSample]] = [:]
        for endpoint in contract.endpoints {
            var request = Self.request(for: endpoint)
            if let parts = endpoint.multipart { request.standIn(for: parts, types: contract.types) }
            // As the server compiles them: a login's or refresh's tokens are the issued ones.
            let issuesTokens = AnswerCompiler.issuesTokens(endpoint, in: contract)
            let written = fixtures.fixtures(for: endpoint.id)
            var list: [FixtureSample] = []
            for fixture in written.inTryOrder where fixture.events == nil {
                // A state condition needs the server's collections: without them the fixture is only named.
                let role: FixtureSample.Role = fixture.isDefault ? .fallback : (fixture.conditions.isEmpty ? .matched : .named)
                guard fixture.code == 0 else {
                    list.append(FixtureSample(name: fixture.name, data: .null, location: fixture.location, role: role, matchers: fixture.matchers,
                                       code: fixture.code, message: fixture.message))
                    continue
                }
                if !fixture.effects.isEmpty {
                    // Left out when the sample's request is refused on a fresh session's seeds
                    // (deleting a record that is not there): its answer depends on the server's state.
                    if let data = Self.effectData(fixture, endpoint: endpoint, request: request, contract: contract, collections: collections) {
                        list.append(FixtureSample(name: fixture.name, data: data, location: fixture.location, role: role, matchers: fixture.matchers))
                    }
                    continue
                }
                // A fixture without `data` answers a value generated from the response type, as on the server.
                let data = fixture.data ?? ResponseGenerator(types: contract.types).value(for: endpoint.response)
                guard let rendered = Self.rendered(data, issuesTokens: issuesTokens, request: request) else { continue }
                list.append(FixtureSample(name: fixture.name, data: rendered, location: fixture.location, role: role, matchers: fixture.matchers))
            }
            var fallbackTaken = written.contains(where: \.isDefault)
            for example in endpoint.examples where example.code == 0 && !list.contains(where: { $0.name == example.name }) {
                guard let response = example.response else { continue }
                list.append(FixtureSample(name: example.name, data: response.value, location: example.location,
                                   role: fallbackTaken ? .named : .fallback, matchers: []))
                fallbackTaken = true
            }
            // The contract's refusals answer only when named (`Prefer: example=NAME`), as on the server.
            for example in endpoint.examples where example.code != 0 && !list.contains(where: { $0.name == example.name }) {
                list.append(FixtureSample(name: example.name, data: .null, location: example.location, role: .named, code: example.code))
            }
            if !list.isEmpty { samples[endpoint.id] = list }
        }
        byEndpoint = samples
    }

    /// The request a sample answers.
    public struct Request: Sendable {
        /// The path below the base path, with the query, percent-encoded.
        public var target: String
        public var method: String
        /// The path parameters, decoded.
        public var parameters: [String: String]
        public var body: JSONValue?
        /// What `{{upload.PART…}}` reads: a stored file for each file part.
        public var uploads: [String: JSONValue] = [:]

        /// A multipart request's stand-ins: each text part's first value, and for each
        /// file part a stored file of its first media type.
        package mutating func standIn(for parts: [MultipartPart], types: [String: TypeDeclaration]) {
            let generator = ResponseGenerator(types: types)
            var fields: [JSONValue.Member] = []
            for part in parts {
                switch part.content {
                case .text(let schema): fields.append(.init(part.name, generator.value(for: schema, name: part.name)))
                case .file(let rule):
                    let file = StoredFile(id: String(repeating: "0", count: 32), contentType: rule.contentTypes.first ?? "application/octet-stream",
                                          size: 1, storedAt: FixtureSamples.referenceTime)
                    uploads[part.name] = file.json(origin: "http://localhost")
                }
            }
            body = .object(fields)
        }
    }

    /// The request a sample answers: the first example's, or the parameters' names.
    public static func request(for endpoint: Endpoint) -> Request {
        let example = endpoint.examples.first { $0.parameters != nil || $0.query != nil || $0.body != nil }
        var parameters: [String: String] = [:]
        for field in endpoint.parameters {
            parameters[field.name] = example?.parameters?.value[field.name].map(InterpolatedText.text(of:)) ?? field.name
        }
        let path = endpoint.path.segments.map { segment -> String in
            switch segment {
            case .literal(let text): text
            case .parameter(let name): escaped(parameters[name] ?? name)
            }
        }
        var query: [String] = []
        if case .object(let members)? = example?.query?.value {
            for member in members {
                let values: [JSONValue] = if case .array(let items) = member.value { items } else { [member.value] }
                query += values.map { escaped(member.key) + "=" + escaped(InterpolatedText.text(of: $0)) }
            }
        }
        let target = "/" + path.joined(separator: "/") + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        return Request(target: target, method: endpoint.method.rawValue, parameters: parameters, body: example?.body?.value)
    }

    private static func escaped(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? text
    }

    /// What a fixture with effects answers on a fresh session's seeds; nil when the
    /// server refuses the sample's request (no such record): there is no answer to type.
    private static func effectData(_ fixture: Fixture, endpoint: Endpoint, request: Request, contract: Contract,
                                   collections: [String: CollectionDefinition]) -> JSONValue? {
        var context = context(request)
        context.user = previewUser
        let runner = EffectRunner(contract: contract, collections: collections, state: context.state, envelopes: Envelopes(service: contract.service),
                                  signer: StandInSigner())
        let data = fixture.data.flatMap { try? TemplatedJSON($0) }
        return try? runner.run(fixture.effects, data: data, endpoint: endpoint.id, session: "preview", context: &context).value
    }

    /// `data` with its templates rendered for `request`; nil when they do not render.
    private static func rendered(_ data: JSONValue, issuesTokens: Bool, request: Request) -> JSONValue? {
        guard let compiled = try? CompiledJSON(issuesTokens ? AnswerCompiler.tokenHoles(in: data) : data) else { return nil }
        return try? JSONReader.read(compiled.render(context(request)))
    }

    private static func context(_ request: Request) -> TemplateContext {
        let state = MockState(clock: MockClock(wall: referenceTime), nonceTTLSeconds: 600, seed: 0)
        let mockRequest = MockRequest(method: request.method, target: request.target, body: request.body.map { JSONWriter.bytes($0) } ?? [])
        var context = TemplateContext(request: mockRequest, parameters: request.parameters, body: request.body,
                                      now: referenceTime, state: state)
        context.issued = previewTokens
        context.uploads = request.uploads
        // A body asking for a direct upload gets a stand-in policy, as the server mints one.
        if case .string(let type)? = request.body?["content_type"], case .int(let size)? = request.body?["size"] {
            let policy = UploadPolicy(id: String(repeating: "0", count: 32), contentType: type, maxSize: size, expires: referenceTime + UploadPolicy.lifetime)
            context.uploadPolicy = policy.json(origin: "http://localhost", key: [], signer: StandInSigner())
        }
        return context
    }
}
