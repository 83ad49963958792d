import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState

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
/// | `GET /__accord/health` | 200 `{"status": "ok"}` when the server and its storage answer, else 503: for orchestrators, so it needs no admin token and takes any `Host` |
///
/// The web console's calls (`/__accord/ui`, `events`, `contract`, `try`) are in `MockEngine+Console.swift`.
extension MockEngine {
    static let controlPrefix = "/__accord/"
    static let healthPath = "/__accord/health"

    func control(_ request: MockRequest) -> MockResponse {
        if request.path == Self.consolePath || request.path.hasPrefix(Self.consolePath + "/") { return consoleFile(request) }
        if request.path == Self.healthPath, ["GET", "HEAD"].contains(request.method) { return health() }
        if let refused = controlRefusal(request) { return refused }
        let segments = request.path.dropFirst(Self.controlPrefix.count).split(separator: "/").map(String.init)
        let body = request.body.isEmpty ? JSONValue.object([]) : (try? JSONReader.read(request.body))
        guard let body else { return controlError(400, "malformed_json", "the body is not JSON") }
        for route in Self.controlRoutes where route.method == request.method {
            guard let call = route.match(segments, request: request, body: body) else { continue }
            do {
                return try route.handle(self)(call)
            } catch {
                return storageUnavailable(error)
            }
        }
        return controlError(404, "no_such_call", "no control call \(request.method) \(request.path); see docs/flows.md")
    }

    /// Every control call: its method, its path under ``controlPrefix`` (`*` for one
    /// segment, given to the call in ``ControlCall/wildcards``), and what answers it.
    static let controlRoutes: [ControlRoute] = [
        ControlRoute("GET", "rules", handle: { $0.listRules }),
        ControlRoute("POST", "rules", handle: { $0.addRule }),
        ControlRoute("DELETE", "rules", handle: { $0.removeRules }),
        ControlRoute("DELETE", "rules/*", handle: { $0.removeRule }),
        ControlRoute("POST", "tokens/expire", handle: { $0.expireTokens }),
        ControlRoute("POST", "tokens/invalidate", handle: { $0.invalidateTokens }),
        ControlRoute("POST", "users/*/ban", handle: { $0.ban }),
        ControlRoute("DELETE", "users/*/ban", handle: { $0.unban }),
        ControlRoute("POST", "users/*/force-logout", handle: { $0.forceLogout }),
        ControlRoute("GET", "clock", handle: { engine in { _ throws(StorageError) in engine.controlAnswer(try engine.clockJSON()) } }),
        ControlRoute("POST", "clock", handle: { $0.moveClock }),
        ControlRoute("POST", "reset", handle: { engine in { _ throws(StorageError) in try engine.state.reset(); engine.flows?.reset(); return engine.controlAnswer(.object([])) } }),
        ControlRoute("GET", "requests", handle: { $0.listRequests }),
        ControlRoute("DELETE", "requests", handle: { engine in
            { _ throws(StorageError) in try engine.state.journal.clear(); return engine.controlAnswer(.object([])) }
        }),
        ControlRoute("GET", "events", handle: { engine in { call throws(StorageError) in try engine.eventStream(call.request) } }),
        ControlRoute("GET", "contract", handle: { engine in { _ in engine.controlAnswer(engine.consoleContract) } }),
        ControlRoute("POST", "try", handle: { engine in { call throws(StorageError) in try engine.tryRequest(call) } }),
        ControlRoute("POST", "replay", handle: { engine in { call throws(StorageError) in try engine.replayRequest(call) } }),
        ControlRoute("POST", "sessions/*/scenario", handle: { $0.startScenario }),
        ControlRoute("GET", "report", handle: { engine in { _ in engine.controlAnswer(engine.report().json) } }),
        ControlRoute("POST", "state/reset", handle: { $0.resetState }),
        ControlRoute("GET", "state/*", handle: { $0.collectionState }),
        ControlRoute("POST", "shutdown", handle: { $0.shutdown }),
    ]

    /// The mock time, as RFC 3339 and Unix seconds, and its offset from the wall clock.
    func clockJSON() throws(StorageError) -> JSONValue {
        let now = try state.clock.now
        let offset = try now - state.clock.wallNow
        return .object([.init("now", .string(RFC3339.format(unixSeconds: now))), .init("unix", .int(Int(now))), .init("offset_seconds", .int(Int(offset)))])
    }

    static func string(_ value: JSONValue) -> String? {
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

    /// Whether this replica can serve: its storage answers (Redis a `PING`). Says nothing
    /// of the state, so an orchestrator's probe needs no token.
    func health() -> MockResponse {
        do {
            try state.storage.checkHealth()
            return controlAnswer(.object([.init("status", .string("ok"))]))
        } catch {
            var answer = controlAnswer(.object([.init("status", .string("unavailable")), .init("reason", .string("\(error)"))]), status: 503)
            answer.headers.append(("Retry-After", "1"))
            return answer
        }
    }

    /// A control call or stored file the storage failed to serve: 503, to be tried again.
    func storageUnavailable(_ error: StorageError) -> MockResponse {
        var response = controlError(503, "storage_unavailable", "the server's storage failed: \(error)")
        response.headers.append(("Retry-After", "1"))
        return response
    }

    func controlError(_ status: Int, _ kind: String, _ message: String) -> MockResponse {
        controlAnswer(.object([.init("error", .string(kind)), .init("message", .string(message))]), status: status)
    }
}
