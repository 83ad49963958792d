import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A `Transport` that answers in process, from the generated fixtures, for SwiftUI
/// previews, unit tests and UI tests that should not depend on a port.
///
/// It checks what `accord serve` checks first (the route, `X-Sign` with the contract's
/// development app secret when it signs, the bearer token or API key) and keeps real
/// token state: a login issues
/// tokens, a refresh rotates them, and the flows a tester asks for are answered with the
/// contract's codes (``expireTokens()`` → token expired, ``forceLogout()``, ``ban(_:)``,
/// ``inject(_:code:)``). An endpoint answers as the server does (docs/mocks.md): the
/// fixture ``prefer(_:_:)`` names, else the first whose `when:` matchers all hold, else
/// the default fixture, else the first success example.
///
/// ```swift
/// let mock = MockTransport()
/// let client = APIClient(configuration: .preview, transport: mock)
/// await mock.prefer(API.signal.fixtures.inbox.names.lastPage)
/// ```
///
/// The generated code names it for its contract: `MockTransport` is `AccordMockTransport<Service>`.
public actor AccordMockTransport<Service: AccordContractService>: Transport {
    public typealias BusinessCode = Service.Code
    public typealias BanPayload = Service.BanPayload

    /// A request the transport answered, and how.
    public struct Call: Sendable, Hashable {
        /// The endpoint's id, or nil when no route matched.
        public var endpoint: String?
        public var method: String
        public var path: String
        /// The envelope's code, or nil when the answer had none (a fault, a 404).
        public var code: Int?
    }

    /// Every request so far, in order.
    public private(set) var calls: [Call] = []
    private let routes: [MockRoute]
    private var preferred: [String: String] = [:]
    private var injected: [String: [BusinessCode]] = [:]
    private var failures: [String: URLError] = [:]
    private var latency: TimeInterval = 0
    private var accessTokens: Set<String> = []
    private var refreshTokens: Set<String> = []
    private var expired: Set<String> = []
    private var revoked: Set<String> = []
    private var ban: BanPayload?
    private var issuedCount = 0

    /// - Parameter session: tokens to accept from the start, as a logged-in preview needs.
    public init(routes: [MockRoute] = Service.mockRoutes, session: Tokens? = nil) {
        self.routes = routes
        if let session {
            accessTokens.insert(session.accessToken)
            refreshTokens.insert(session.refreshToken)
        }
    }

    // MARK: What a test asks for

    /// Answers the endpoint `fixture` belongs to with that fixture or example from now on
    /// (a refusal's code as well as a value): `prefer(API.signal.fixtures.inbox.names.lastPage)`.
    public func prefer<Response>(_ fixture: FixtureName<Response>) {
        prefer(fixture.name, of: fixture.endpoint)
    }

    /// Answers the endpoint `sample` names with its fixture or example `name` from now on.
    /// A name the endpoint does not have stops the test, listing the names it has.
    public func prefer<Response>(_ sample: Endpoint<Response>, _ name: String) {
        prefer(name, of: sample.id)
    }

    private func prefer(_ name: String, of endpoint: String) {
        _ = routes.answer(name, of: endpoint, asker: "MockTransport.prefer")
        preferred[endpoint] = name
    }

    /// Answers the next call of the endpoint `sample` names with `code` (its message from the table).
    public func inject<Response>(_ sample: Endpoint<Response>, code: BusinessCode) {
        injected[sample.id, default: []].append(code)
    }

    /// Fails every call of the endpoint `sample` names with `error` (`.notConnectedToInternet`, `.timedOut`…) until ``recover(_:)``.
    public func fail<Response>(_ sample: Endpoint<Response>, with error: URLError) {
        failures[sample.id] = error
    }

    public func recover<Response>(_ sample: Endpoint<Response>) {
        failures[sample.id] = nil
    }

    /// Waits this many seconds before every answer.
    public func setLatency(_ seconds: TimeInterval) {
        latency = max(0, min(seconds, 3_600))
    }

    /// Every access token now answers as expired, until a refresh issues new ones.
    public func expireTokens() {
        expired.formUnion(accessTokens)
    }

    /// Every access token now answers as invalid (the token-invalid code); a refresh
    /// then issues new ones.
    public func invalidateTokens() {
        accessTokens.removeAll()
    }

    /// Every session ends: its access token answers force-logout, its refresh token is refused.
    public func forceLogout() {
        revoked.formUnion(accessTokens)
        refreshTokens.removeAll()
    }

    /// Every authenticated call answers banned with `payload` as its `data`, until ``unban()``.
    public func ban(_ payload: BanPayload) {
        ban = payload
    }

    public func unban() {
        ban = nil
    }

    // MARK: Transport

    public func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        if latency > 0 { try await Task.sleep(nanoseconds: UInt64(latency * 1_000_000_000)) }
        let received = ReceivedRequest(request, basePath: Service.basePath)
        let url = received.url, method = received.method
        // As the server routes: where templates overlap, the one with more literal segments wins
        // (`/signals/quota` before `/signals/{signal_id}`).
        let candidates = routes.filter { $0.method.rawValue == method && $0.matches(received.segments) }
        guard let route = candidates.max(by: { $0.literalSegments < $1.literalSegments }) else {
            calls.append(Call(endpoint: nil, method: method, path: url.path, code: nil))
            return (Data("no endpoint \(method) /\(received.segments.joined(separator: "/"))".utf8), try Self.response(url, status: 404, type: "text/plain"))
        }
        if let failure = failures[route.id] {
            calls.append(Call(endpoint: route.id, method: method, path: url.path, code: nil))
            throw failure
        }
        let reply = try reply(route, request: received)
        calls.append(Call(endpoint: route.id, method: method, path: url.path, code: reply.code.rawValue))
        guard Service.usesEnvelope else {
            let failed = reply.code.rawValue != 0
            return (Self.plainBody(reply), try Self.response(url, status: failed ? reply.code.rawValue : 200,
                                                              type: failed ? Service.errorMediaType : "application/json"))
        }
        return (Self.envelope(reply), try Self.response(url, status: 200, type: "application/json"))
    }

    /// What the transport answers: a code, its `data`, and a `msg` (nil: the table's).
    private struct Reply {
        var code: BusinessCode
        var data: CanonicalJSON?
        var message: String?

        init(_ code: Int, data: CanonicalJSON? = nil, message: String? = nil) {
            self.code = BusinessCode(rawValue: code)
            self.data = data
            self.message = message
        }

        init(_ code: BusinessCode, data: CanonicalJSON? = nil) {
            self.code = code
            self.data = data
        }
    }

    /// The answer to a request that reached `route`: the checks the server makes first,
    /// then an injected code, then the preferred or default fixture.
    private func reply(_ route: MockRoute, request: ReceivedRequest) throws -> Reply {
        // accord:if signing
        guard Service.unsignedEndpoints.contains(route.id) || isSigned(request) else { return Reply(Service.signatureInvalidCode) }
        // accord:end
        if route.requiresAuth {
            if Service.usesTokens {
                let header = request.header(Service.authHeader) ?? ""
                let token = String(header.dropFirst(Service.authScheme.count + 1))
                if revoked.contains(token) { return Reply(Service.forceLogoutCode) }
                guard accessTokens.contains(token) else { return Reply(Service.tokenInvalidCode) }
                if expired.contains(token) { return Reply(Service.tokenExpiredCode) }
            } else if Service.apiKeyHeader != nil || Service.apiKeyQuery != nil {
                let key = Service.apiKeyHeader.flatMap { request.header($0) }
                    ?? Service.apiKeyQuery.flatMap { name in request.query.first { $0.name == name }?.value }
                guard let key, Service.apiKeys.contains(key) else { return Reply(Service.forceLogoutCode) }
            }
            if let ban { return Reply(Service.bannedCode, data: try Self.json(ban)) }
        }
        if var queue = injected[route.id], !queue.isEmpty {
            let code = queue.removeFirst()
            injected[route.id] = queue
            return Reply(code)
        }
        let parameters = request.parameters(of: route)
        let chosen = preferred[route.id].flatMap { name in route.answers.first { $0.name == name } }
            ?? route.answers.first { $0.role == .matched && $0.matchers.allSatisfy { request.satisfies($0, parameters: parameters) } }
            ?? route.answers.first { $0.role == .fallback }
        guard let chosen else { return Reply(0, data: .object([])) }
        guard let value = chosen.value else { return Reply(chosen.code, message: chosen.message) }
        let data = try Self.json(value())
        if route.id == Service.refreshEndpoint {
            guard case .string(let token)? = request.body?.value(at: "/refresh_token"), refreshTokens.remove(token) != nil else {
                return Reply(Service.refreshFailedCode)
            }
            return Reply(0, data: issueTokens(into: data))
        }
        if Service.loginEndpoints.contains(route.id) { return Reply(0, data: issueTokens(into: data)) }
        return Reply(0, data: data)
    }

    /// `data` with new tokens in place of the fixture's, which are now the valid ones.
    private func issueTokens(into data: CanonicalJSON) -> CanonicalJSON {
        issuedCount += 1
        let pair = Tokens(accessToken: "mock-access-\(issuedCount)", refreshToken: "mock-refresh-\(issuedCount)")
        accessTokens.insert(pair.accessToken)
        refreshTokens.insert(pair.refreshToken)
        guard case .object(var members) = data else { return data }
        for index in members.indices {
            if members[index].key == "access_token" { members[index].value = .string(pair.accessToken) }
            if members[index].key == "refresh_token" { members[index].value = .string(pair.refreshToken) }
        }
        return .object(members)
    }

    // accord:if signing
    /// Whether `X-Sign` is what the contract's rule gives with the app's secret.
    private func isSigned(_ request: ReceivedRequest) -> Bool {
        guard let appKey = request.header(Service.appKeyHeader), let secret = Service.apps[appKey],
              let timestamp = request.header(Service.timestampHeader), let nonce = request.header(Service.nonceHeader),
              let signature = request.header(Service.signatureHeader) else { return false }
        let query = request.query.map { QueryItem(name: $0.name, value: $0.value ?? "") }
        let params = RequestSigner.sortedParams(query: query, body: request.body)
        return RequestSigner(appKey: appKey, appSecret: secret).signature(timestamp: timestamp, nonce: nonce, sortedParams: params) == signature
    }
    // accord:end

    /// A value as the JSON the server would send.
    private nonisolated static func json(_ value: any Encodable) throws -> CanonicalJSON {
        try CanonicalJSON(parsing: Array(JSONEncoder().encode(value)))
    }

    private nonisolated static func envelope(_ reply: Reply) -> Data {
        let message = reply.message ?? (reply.code.rawValue == 0 ? "ok" : Service.message(reply.code))
        var members: [(key: String, value: CanonicalJSON)] = [(Service.envelopeCode, .integer(reply.code.rawValue)),
                                                              (Service.envelopeMessage, .string(message))]
        if let data = reply.data { members.append((Service.envelopeData, data)) }
        return Data(CanonicalJSON.object(members).bytes)
    }

    /// A plain API's answer: the data of a success, else the error body given (a ban's
    /// payload) or the problem document of the code (its discriminator, message, status).
    private nonisolated static func plainBody(_ reply: Reply) -> Data {
        if let data = reply.data { return Data(data.bytes) }
        let status = reply.code.rawValue
        guard status != 0 else { return Data("{}".utf8) }
        let discriminator = Service.discriminator(reply.code)
        var members: [(key: String, value: CanonicalJSON)] = [
            ("type", .string(discriminator?.member == "type" ? discriminator!.value : "about:blank")),
            ("title", .string(reply.message ?? Service.message(reply.code))), ("status", .integer(status)),
        ]
        if let discriminator, discriminator.member != "type" { members.append((discriminator.member, .string(discriminator.value))) }
        return Data(CanonicalJSON.object(members).bytes)
    }

    private nonisolated static func response(_ url: URL, status: Int, type: String) throws -> HTTPURLResponse {
        guard let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: ["Content-Type": type]) else {
            throw URLError(.badServerResponse)
        }
        return response
    }
}

extension AccordAPIClient {
    /// A logged-in client over a new ``MockTransport``, for a SwiftUI preview in one line:
    /// `InboxView(model: InboxModel(api: APIClient.preview))`.
    public static var preview: AccordAPIClient<Service> {
        let tokens = Tokens(accessToken: "preview-access-token", refreshToken: "preview-refresh-token")
        return AccordAPIClient(configuration: .preview, storage: InMemoryTokenStorage(tokens),
                               transport: AccordMockTransport<Service>(session: tokens))
    }
}
