import AccordContract
import AccordHTTP
import AccordJSON

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
/// | `GET /__accord/report` | the run's report so far: violations and coverage |
/// | `GET /__accord/state/{collection}?session=` | a session's records of a collection (`anonymous` by default), and how many sessions are kept and were evicted |
/// | `POST /__accord/state/reset?session=` | a session (or, without `session`, every one) back to the seeds |
/// | `POST /__accord/sessions/{session}/scenario` `{name}` | start a scenario for a session |
/// | `POST /__accord/shutdown` | stop the server as SIGTERM does, writing `--report` |
///
/// The web console's calls (`/__accord/ui`, `events`, `contract`, `try`) are in `MockEngine+Console.swift`.
extension MockEngine {
    static let controlPrefix = "/__accord/"

    func control(_ request: MockRequest) -> MockResponse {
        if request.path == Self.consolePath || request.path.hasPrefix(Self.consolePath + "/") { return consoleFile(request) }
        if let refused = controlRefusal(request) { return refused }
        let parts = request.path.dropFirst(Self.controlPrefix.count).split(separator: "/").map(String.init)
        let body = request.body.isEmpty ? JSONValue.object([]) : (try? JSONReader.read(request.body))
        guard let body else { return controlError(400, "malformed_json", "the body is not JSON") }
        switch (request.method, parts) {
        case ("GET", ["rules"]):
            return controlAnswer(.object([.init("rules", .array(state.rules.all.map(\.json)))]))
        case ("POST", ["rules"]):
            let rule: InjectionRule
            do {
                rule = try InjectionRule(json: body, contract: contract)
            } catch {
                return controlError(400, "invalid_rule", error.message)
            }
            do {
                return controlAnswer(try state.rules.add(rule).json, status: 201)
            } catch {
                return controlError(429, "too_many_rules", "\(error.capacity) rules stand already, the most the server keeps; "
                                    + "delete some (DELETE /__accord/rules/{id}) or all (DELETE /__accord/rules)")
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
            do {
                if case .string(let text)? = body["advance"], let seconds = DurationText.seconds(text) {
                    try state.clock.advance(by: Int64(seconds))
                } else if case .int(let time)? = body["set"] {
                    try state.clock.set(to: Int64(time))
                } else {
                    return controlError(400, "invalid_clock", "give {\"advance\": \"2h\"} (units s, m, h, d; at most a year, \"-1h\" goes back) "
                                        + "or {\"set\": UNIX_SECONDS} (within 100 years of now)")
                }
            } catch {
                return controlError(400, "clock_out_of_range", error.message)
            }
            return controlAnswer(clockJSON)
        case ("POST", ["reset"]):
            state.reset()
            return controlAnswer(.object([]))
        case ("GET", ["requests"]):
            let capacity = state.journal.capacity
            let limitText = request.query.first { $0.name == "limit" }?.value
            guard let limit = limitText.map({ Int($0) }) ?? 1_000, (1...capacity).contains(limit) else {
                return controlError(400, "invalid_limit", "'limit' takes a number from 1 to \(capacity), found '\(limitText ?? "")'")
            }
            let filter: JournalFilter
            do {
                filter = try JournalFilter(query: request.query)
            } catch {
                return controlError(400, "invalid_filter", error.message)
            }
            var members: [JSONValue.Member] = [.init("requests", .array(state.journal.entries(matching: filter, limit: limit).map(\.json)))]
            if let recording = state.journal.recordingStatus { members.append(.init("recording", recording.json)) }
            return controlAnswer(.object(members))
        case ("GET", ["events"]):
            return eventStream(request)
        case ("GET", ["contract"]):
            return controlAnswer(consoleContract)
        case ("POST", ["try"]):
            return tryRequest(body)
        case ("POST", let path) where path.count == 3 && path[0] == "sessions" && path[2] == "scenario":
            guard case .string(let name)? = body["name"], scenarios[name] != nil else {
                return controlError(400, "invalid_scenario", "give {\"name\": SCENARIO}; scenarios: \(scenarios.keys.sorted().joined(separator: ", "))")
            }
            let session = PercentDecoding.decode(path[1], plusAsSpace: false)
            state.scenarios.start(name, session: session)
            return controlAnswer(.object([.init("session", .string(session)), .init("scenario", .string(name))]))
        case ("GET", ["report"]):
            return controlAnswer(report().json)
        case ("POST", ["state", "reset"]):
            let session = request.query.first { $0.name == "session" }?.value
            state.collections.reset(session: session)
            return controlAnswer(.object([.init("reset", .string(session ?? "every session"))]))
        case ("GET", let path) where path.count == 2 && path[0] == "state":
            guard let collection = collections[path[1]] else {
                return controlError(404, "no_such_collection", "no collection '\(path[1])'; collections: \(collections.keys.sorted().joined(separator: ", "))")
            }
            let session = request.query.first { $0.name == "session" }?.value ?? "anonymous"
            let records = state.collections.records(of: collection, session: session, state: state)
            let counts = state.collections.counts
            let bytes = state.collections.byteCounts
            return controlAnswer(.object([
                .init("collection", .string(collection.name)), .init("type", .string(collection.typeName)), .init("session", .string(session)),
                .init("limit", .int(collection.limit)), .init("records", .array(records)),
                .init("sessions", .object([.init("kept", .int(counts.sessions)), .init("limit", .int(state.collections.sessionLimit)),
                                           .init("evicted", .int(counts.evicted))])),
                .init("bytes", .object([.init("kept", .int(bytes.bytes)), .init("session_budget", .int(state.collections.sessionBudgetBytes)),
                                        .init("total_budget", .int(state.collections.totalBudgetBytes)),
                                        .init("records_dropped_for_budget", .int(bytes.trimmed))])),
            ]))
        case ("POST", ["shutdown"]):
            guard state.shutdown.request() else {
                return controlError(409, "cannot_stop", "this engine runs inside a process that does not stop on request")
            }
            return controlAnswer(.object([.init("stopping", .bool(true))]), status: 202)
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

    private static func string(_ value: JSONValue) -> String? {
        if case .string(let text) = value { return text }
        return nil
    }

    /// The policy of every control answer that is not the console's page: nothing in it may load or run.
    static let answerPolicy = "default-src 'none'; frame-ancestors 'none'"

    func controlAnswer(_ value: JSONValue, status: Int = 200) -> MockResponse {
        MockResponse(status: status, headers: [("Content-Type", "application/json; charset=utf-8"), ("Cache-Control", "no-store"),
                                               ("Content-Security-Policy", Self.answerPolicy),
                                               ("X-Content-Type-Options", "nosniff")],
                     body: .bytes(JSONWriter.bytes(value)), summary: .init(verdict: .control))
    }

    func controlError(_ status: Int, _ kind: String, _ message: String) -> MockResponse {
        controlAnswer(.object([.init("error", .string(kind)), .init("message", .string(message))]), status: status)
    }
}
