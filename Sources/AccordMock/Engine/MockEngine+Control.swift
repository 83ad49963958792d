import AccordContract
import AccordSigning

/// The control API under `/__accord/`, for testers and test suites:
///
/// | call | effect |
/// |---|---|
/// | `GET/POST/DELETE /__accord/rules`, `DELETE /__accord/rules/{id}` | list, add, clear, remove injection rules |
/// | `POST /__accord/tokens/expire` `{uid?}` | expire access tokens now (1002; refresh then works) |
/// | `POST /__accord/tokens/invalidate` `{uid?}` | invalidate access tokens on the server (1005; refresh then works) |
/// | `POST/DELETE /__accord/users/{uid}/ban` `{reason, until?, appeal_url?}` | ban (1008) or lift the ban |
/// | `POST /__accord/users/{uid}/force-logout` | revoke the user's tokens (1006, then 1007) |
/// | `GET/POST /__accord/clock` `{advance: "2h"}` or `{set: …}` | read or move the mock clock |
/// | `POST /__accord/reset` | forget tokens, bans, rules, scenario progress, journal; wall clock |
/// | `GET/DELETE /__accord/requests?session=&limit=` | the request journal |
extension MockEngine {
    static let controlPrefix = "/__accord/"

    func control(_ request: MockRequest) -> MockResponse {
        if let token = options.adminToken {
            guard let given = request.headers["x-accord-admin-token"], Digest.constantTimeEquals(given.utf8, token.utf8) else {
                return controlError(401, "admin_token_required", "the control API needs the X-Accord-Admin-Token header given to --admin-token")
            }
        } else if !request.isFromLoopback {
            return controlError(403, "loopback_only", "the control API answers loopback clients only; start the server with --admin-token to allow others")
        }
        let parts = request.path.dropFirst(Self.controlPrefix.count).split(separator: "/").map(String.init)
        let body = request.body.isEmpty ? JSONValue.object([]) : (try? JSONReader.read(request.body))
        guard let body else { return controlError(400, "malformed_json", "the body is not JSON") }
        switch (request.method, parts) {
        case ("GET", ["rules"]):
            return controlAnswer(.object([.init("rules", .array(state.rules.all.map(Self.json)))]))
        case ("POST", ["rules"]):
            do {
                let rule = state.rules.add(try decodeRule(body))
                return controlAnswer(Self.json(rule), status: 201)
            } catch {
                return controlError(400, "invalid_rule", error.message)
            }
        case ("DELETE", ["rules"]):
            state.rules.removeAll()
            return controlAnswer(.object([]))
        case ("DELETE", let path) where path.count == 2 && path[0] == "rules":
            guard let id = Int(path[1]), state.rules.remove(id: id) else { return controlError(404, "no_such_rule", "no rule \(path[1])") }
            return controlAnswer(.object([]))
        case ("POST", ["tokens", "expire"]):
            let uid: Int? = if case .int(let value)? = body["uid"] { value } else { nil }
            return controlAnswer(.object([.init("expired", .int(state.tokens.expireAccessTokens(uid: uid)))]))
        case ("POST", ["tokens", "invalidate"]):
            let uid: Int? = if case .int(let value)? = body["uid"] { value } else { nil }
            return controlAnswer(.object([.init("invalidated", .int(state.tokens.invalidateAccessTokens(uid: uid)))]))
        case ("POST", let path) where path.count == 3 && path[0] == "users" && path[2] == "ban":
            guard let uid = Int(path[1]) else { return controlError(400, "invalid_uid", "'\(path[1])' is not a user id") }
            guard case .string(let reason)? = body["reason"] else { return controlError(400, "invalid_ban", "a ban needs {\"reason\": …}") }
            let ban = TokenStore.Ban(reason: reason, until: body["until"].flatMap(Self.string), appealURL: body["appeal_url"].flatMap(Self.string))
            state.tokens.setBan(ban, uid: uid)
            return controlAnswer(.object([.init("uid", .int(uid)), .init("ban_info", ban.json)]))
        case ("DELETE", let path) where path.count == 3 && path[0] == "users" && path[2] == "ban":
            guard let uid = Int(path[1]) else { return controlError(400, "invalid_uid", "'\(path[1])' is not a user id") }
            state.tokens.setBan(nil, uid: uid)
            return controlAnswer(.object([]))
        case ("POST", let path) where path.count == 3 && path[0] == "users" && path[2] == "force-logout":
            guard let uid = Int(path[1]) else { return controlError(400, "invalid_uid", "'\(path[1])' is not a user id") }
            return controlAnswer(.object([.init("revoked", .int(state.tokens.forceLogout(uid: uid)))]))
        case ("GET", ["clock"]):
            return controlAnswer(clockJSON)
        case ("POST", ["clock"]):
            if case .string(let text)? = body["advance"], let seconds = TemplateExpression.seconds(text) {
                state.clock.advance(by: seconds)
            } else if case .int(let time)? = body["set"] {
                state.clock.set(to: Int64(time))
            } else {
                return controlError(400, "invalid_clock", "give {\"advance\": \"2h\"} (units s, m, h, d) or {\"set\": UNIX_SECONDS}")
            }
            return controlAnswer(clockJSON)
        case ("POST", ["reset"]):
            state.reset()
            return controlAnswer(.object([]))
        case ("GET", ["requests"]):
            let limit = request.query.first { $0.name == "limit" }.flatMap { Int($0.value) } ?? 1_000
            let session = request.query.first { $0.name == "session" }?.value
            return controlAnswer(.object([.init("requests", .array(state.journal.entries(session: session, limit: limit).map(\.json)))]))
        case ("DELETE", ["requests"]):
            state.journal.clear()
            return controlAnswer(.object([]))
        default:
            return controlError(404, "no_such_call", "no control call \(request.method) \(request.path); see docs/flows.md")
        }
    }

    private var clockJSON: JSONValue {
        .object([.init("now", .string(RFC3339.format(unixSeconds: state.clock.now))), .init("unix", .int(Int(state.clock.now))),
                 .init("offset_seconds", .int(Int(state.clock.now - state.clock.wallNow)))])
    }

    /// `{match: {endpoint, user?, session?}, respond: {code, msg?, data?} | "name", fault?: "reset", times?, probability?, after?}`
    private func decodeRule(_ body: JSONValue) throws(Injection.SyntaxError) -> InjectionRule {
        guard case .string(let endpoint)? = body.value(at: "/match/endpoint") else {
            throw Injection.SyntaxError(message: "a rule needs {\"match\": {\"endpoint\": \"signal.*\"}}")
        }
        guard contract.endpoints.contains(where: { EndpointPattern.matches(endpoint, $0.id) }) else {
            throw Injection.SyntaxError(message: "'\(endpoint)' matches no endpoint\(NameSuggestion.hint(for: endpoint, in: contract.endpoints.map(\.id)))")
        }
        let action: Injection
        switch (body["respond"], body["fault"]) {
        case (.string(let text)?, nil), (nil, .string(let text)?):
            action = try Injection(parsing: text, codes: contract.service.codes)
        case (.object?, nil):
            guard case .int(let code)? = body.value(at: "/respond/code"), code == 0 || contract.service.code(code) != nil else {
                throw Injection.SyntaxError(message: "'respond' needs a 'code': 0 (with 'data') or one from the contract's table")
            }
            action = .business(code: code, message: body.value(at: "/respond/msg").flatMap(Self.string), data: body.value(at: "/respond/data"))
        default:
            throw Injection.SyntaxError(message: "a rule needs exactly one of 'respond' ({\"code\": 1005} or a code name) and 'fault' (\"reset\", \"503\", …)")
        }
        var rule = InjectionRule(endpoint: endpoint, action: action)
        if case .int(let user)? = body.value(at: "/match/user") { rule.user = user }
        rule.session = body.value(at: "/match/session").flatMap(Self.string)
        if case .int(let times)? = body["times"] { rule.remaining = max(1, times) }
        switch body["probability"] {
        case .double(let chance)?: rule.probability = chance
        case .int(let chance)?: rule.probability = Double(chance)
        default: break
        }
        if case .int(let after)? = body["after"] { rule.after = max(0, after) }
        return rule
    }

    private static func json(_ rule: InjectionRule) -> JSONValue {
        var match: [JSONValue.Member] = [.init("endpoint", .string(rule.endpoint))]
        if let user = rule.user { match.append(.init("user", .int(user))) }
        if let session = rule.session { match.append(.init("session", .string(session))) }
        var members: [JSONValue.Member] = [.init("id", .int(rule.id)), .init("match", .object(match))]
        switch rule.action {
        case .business(let code, let message, let data):
            var respond: [JSONValue.Member] = [.init("code", .int(code))]
            if let message { respond.append(.init("msg", .string(message))) }
            if let data { respond.append(.init("data", data)) }
            members.append(.init("respond", .object(respond)))
        case .fault(let fault):
            members.append(.init("fault", .string(fault.description)))
        }
        if let remaining = rule.remaining { members.append(.init("times_left", .int(remaining))) }
        if let probability = rule.probability { members.append(.init("probability", .double(probability))) }
        members.append(.init("after", .int(rule.after)))
        members.append(.init("seen", .int(rule.seen)))
        return .object(members)
    }

    private static func string(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    private func controlAnswer(_ value: JSONValue, status: Int = 200) -> MockResponse {
        MockResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8")], body: .bytes(JSONWriter.bytes(value)),
                     summary: .init(verdict: "control"))
    }

    private func controlError(_ status: Int, _ kind: String, _ message: String) -> MockResponse {
        controlAnswer(.object([.init("error", .string(kind)), .init("message", .string(message))]), status: status)
    }
}
