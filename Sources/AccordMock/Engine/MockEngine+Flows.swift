import AccordContract

/// Token state, injections and scenarios: how the engine produces the error flows of
/// the business-code table on its own or on demand.
extension MockEngine {
    /// The header that injects an answer into one request.
    static let injectHeader = "x-accord-inject"
    /// The header that runs a scenario for the request's session.
    static let scenarioHeader = "x-accord-scenario"

    // MARK: Tokens

    /// Checks the bearer token of an endpoint that needs one; nil when the request may go on.
    func authenticate(_ request: MockRequest, endpoint: Endpoint, trace: inout Trace) -> MockResponse? {
        let verdict = state.tokens.verdict(authorization: request.headers[authHeader], scheme: contract.service.auth.scheme)
        let refusal: (code: Int, reason: String)
        switch verdict {
        case .valid(let uid):
            trace.user = uid
            if request.headers[Self.sessionHeader] == nil { trace.session = "user:\(uid)" }
            return state.tokens.ban(uid: uid).map { banned($0, endpoint) }
        case .expired(let uid):
            trace.user = uid
            if request.headers[Self.sessionHeader] == nil { trace.session = "user:\(uid)" }
            refusal = (1002, "the access token expired")
        case .invalidated:
            refusal = (1005, "the access token is not valid on this server")
        case .revoked(let uid):
            trace.user = uid
            if request.headers[Self.sessionHeader] == nil { trace.session = "user:\(uid)" }
            refusal = (1006, "the access token was revoked")
        case .missing:
            refusal = (1006, "missing '\(contract.service.auth.header): \(contract.service.auth.scheme) <access_token>'")
        }
        return envelope(code: refusal.code, message: contract.service.code(refusal.code)?.message ?? refusal.reason,
                        data: .object([.init("reason", .string(refusal.reason))]), endpoint: endpoint, verdict: "unauthorized")
    }

    /// 1008 with the ban's `ban_info`.
    func banned(_ ban: TokenStore.Ban, _ endpoint: Endpoint) -> MockResponse {
        envelope(code: 1008, message: contract.service.code(1008)?.message ?? "banned",
                 data: .object([.init("ban_info", ban.json)]), endpoint: endpoint, verdict: "banned")
    }

    /// 1007: the refresh token cannot be used.
    func refreshRefused(_ endpoint: Endpoint) -> MockResponse {
        envelope(code: 1007, message: contract.service.code(1007)?.message ?? "refresh token invalid",
                 data: .object([.init("reason", .string("the refresh token is unknown, rotated, revoked or expired"))]),
                 endpoint: endpoint, verdict: "unauthorized")
    }

    /// Login issues real tokens, refresh rotates them (or answers 1007), logout revokes them.
    /// Answers with token holes were completed while rendering; the others (a templated
    /// uid, an example holding `{{`) are parsed and patched here.
    func completeAuthFlow(_ response: MockResponse, request: MockRequest, endpoint: Endpoint, body: JSONValue?,
                          trace: inout Trace) -> MockResponse {
        guard response.summary.code == 0, !trace.tokensIssued else { return response }
        let auth = contract.service.auth
        if auth.loginEndpoints.contains(endpoint.id) {
            guard let answer = response.json else { return response }
            let uid: Int = if case .int(let uid)? = answer.value(at: "/\(contract.service.envelope.data)/user/uid") { uid } else { 0 }
            trace.user = uid
            if let ban = state.tokens.ban(uid: uid) { return banned(ban, endpoint) }
            return withTokens(state.tokens.issue(uid: uid), in: answer, response)
        }
        if endpoint.id == auth.refreshEndpoint {
            guard case .string(let token)? = body?["refresh_token"], let (uid, pair) = state.tokens.refresh(token) else {
                return refreshRefused(endpoint)
            }
            trace.user = uid
            return response.json.map { withTokens(pair, in: $0, response) } ?? response
        }
        if endpoint.id == auth.logoutEndpoint, let authorization = request.headers[authHeader] {
            state.tokens.revoke(accessToken: String(authorization.dropFirst(auth.scheme.count + 1)))
        }
        return response
    }

    /// The answer (parsed as `answer`) with the issued tokens written over the fixture's.
    private func withTokens(_ pair: TokenStore.Pair, in answer: JSONValue, _ response: MockResponse) -> MockResponse {
        guard case .object(var envelope) = answer,
              let index = envelope.firstIndex(where: { $0.key == contract.service.envelope.data }),
              case .object(var data) = envelope[index].value else { return response }
        let values: [String: JSONValue] = [
            "access_token": .string(pair.accessToken), "refresh_token": .string(pair.refreshToken),
            "access_expires_in": .int(pair.accessExpiresIn), "refresh_expires_in": .int(pair.refreshExpiresIn),
        ]
        for member in data.indices { if let value = values[data[member].key] { data[member].value = value } }
        envelope[index].value = .object(data)
        var patched = response
        patched.body = .bytes(JSONWriter.bytes(.object(envelope)))
        return patched
    }

    // MARK: Injections

    /// The injection for this request: its header, else the first rule that fires, else
    /// its session's scenario step.
    func injection(for request: MockRequest, endpoint: Endpoint, trace: inout Trace) throws(Injection.SyntaxError) -> Injection? {
        if let header = request.headers[Self.injectHeader] {
            trace.injected = "header"
            return try Injection(parsing: header, codes: contract.service.codes)
        }
        if let rule = state.rules.fire(endpoint: endpoint.id, user: trace.user, session: trace.session) {
            trace.injected = "rule:\(rule.id)"
            return rule.action
        }
        guard let name = request.headers[Self.scenarioHeader] ?? options.scenario else { return nil }
        guard let scenario = scenarios[name] else {
            throw Injection.SyntaxError(message: "unknown scenario '\(name)'\(NameSuggestion.hint(for: name, in: scenarios.keys.sorted())); "
                                        + "scenarios: \(scenarios.keys.sorted().joined(separator: ", "))")
        }
        guard let (index, step) = state.scenarios.step(for: endpoint.id, session: trace.session, scenario: scenario) else { return nil }
        trace.injected = "scenario:\(name)#\(index + 1)"
        return step.action
    }

    /// The answer an injection gives instead of the normal one.
    func inject(_ injection: Injection, request: MockRequest, endpoint: Endpoint, parameters: [String: String], body: JSONValue?) -> MockResponse {
        switch injection {
        case .business(let code, let message, let data):
            let defaultData: JSONValue? = code == 1008
                ? .object([.init("ban_info", TokenStore.Ban(reason: "banned by an injected answer").json)]) : nil
            var response = envelope(code: code, message: message ?? contract.service.code(code)?.message ?? (code == 0 ? "ok" : "injected"),
                                    data: data ?? defaultData ?? .object([]), endpoint: endpoint, verdict: "injected")
            response.summary.source = "injected"
            return response
        case .fault(let fault):
            var unused = Trace(session: "")
            var response = answer(request, endpoint: endpoint, parameters: parameters, body: body, trace: &unused)
            response.summary.verdict = "fault"
            switch fault {
            case .latency(let range):
                response.delayMilliseconds += state.random(in: range)
            case .httpStatus(let status):
                let reasons = [500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"]
                response.status = status
                response.headers = [("Content-Type", "text/plain; charset=utf-8")] + (status == 503 ? [("Retry-After", "5")] : [])
                response.body = .bytes(Array((reasons[status] ?? "Server Error").utf8))
                response.summary.code = nil
            case .connectionReset:
                response.termination = .reset
            case .emptyReply:
                response.termination = .close
            case .malformedJSON:
                let bytes = response.bodyBytes
                response.body = .bytes(Array(bytes.prefix(max(1, bytes.count / 2))))
            case .slowBody(let delay):
                let bytes = response.bodyBytes
                let size = max(16, bytes.count / 8)
                response.body = .chunks(stride(from: 0, to: bytes.count, by: size).map {
                    MockResponse.Chunk(bytes: Array(bytes[$0..<min($0 + size, bytes.count)]), delayMilliseconds: delay)
                })
            }
            return response
        }
    }
}

extension MockResponse {
    /// The body parsed as JSON, if it is JSON.
    var json: JSONValue? { try? JSONReader.read(bodyBytes) }
}
