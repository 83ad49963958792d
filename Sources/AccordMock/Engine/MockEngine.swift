import AccordContract
import AccordSigning
import AccordValidation
import Foundation

/// The mock backend as a pure function of (contract, fixtures, shared state, request)
/// → response. The HTTP adapter only moves bytes; everything a client can observe is
/// decided here, so it is tested in-process without a socket.
///
/// Per request: CORS preflight, body limit, route, JSON body, `X-Sign`, contract
/// validation, then the answer: a named one (`Prefer: example=NAME`), the best
/// matching fixture, the default fixture, the contract's example, or a value
/// generated from the schema.
public struct MockEngine: Sendable {
    public let contract: Contract
    public let options: MockOptions
    public let state: MockState
    private let router: Router
    private let validator: RequestValidator
    private let verifier: SignatureVerifier?
    private let answers: [String: EndpointAnswers]
    /// Scenarios by name, from `mocks/scenarios/`.
    public let scenarios: [String: Scenario]
    let authHeader: String

    public init(contract: Contract, fixtures: FixtureSet, scenarios: [String: Scenario] = [:], options: MockOptions = MockOptions(),
                state: MockState) {
        self.contract = contract
        self.options = options
        self.state = state
        self.scenarios = scenarios
        authHeader = contract.service.auth.header.lowercased()
        router = Router(contract: contract)
        validator = RequestValidator(contract: contract)
        verifier = options.verifiesSignatures && contract.service.signing.isEnabled
            ? SignatureVerifier(settings: contract.service.signing, nonces: state.nonces) : nil
        answers = Dictionary(uniqueKeysWithValues: contract.endpoints.map { endpoint in
            (endpoint.id, AnswerCompiler(contract: contract, endpoint: endpoint).answers(fixtures: fixtures.fixtures(for: endpoint.id)))
        })
    }

    /// Answers one request.
    public func handle(_ request: MockRequest) -> MockResponse {
        if request.path.hasPrefix(Self.controlPrefix) { return control(request) }
        var trace = Trace(session: request.headers[Self.sessionHeader] ?? "anonymous")
        var response = steeringRefusal(request) ?? sessionRefusal(trace.session) ?? route(request, trace: &trace)
        // A preflight answer carries its own Access-Control-Allow-Origin: never two.
        if let origin = options.corsAllowOrigin, request.headers["origin"] != nil,
           !response.headers.contains(where: { $0.0 == "Access-Control-Allow-Origin" }) {
            response.headers.append(("Access-Control-Allow-Origin", origin))
            if origin != "*" { response.headers.append(("Vary", "Origin")) }
        }
        state.journal.add(JournalEntry(
            time: state.clock.now, method: request.method, path: request.path, endpoint: response.summary.endpoint,
            session: trace.session, user: trace.user, status: response.status, code: response.summary.code,
            answer: response.summary.source, injected: trace.injected, verdict: response.summary.verdict
        ))
        return response
    }

    /// Who a request is and what touched its answer, for the journal.
    struct Trace {
        var session: String
        var user: Int?
        var injected: String?
        /// Tokens were issued while rendering (login or refresh answers with holes).
        var tokensIssued = false
    }

    private func route(_ request: MockRequest, trace: inout Trace) -> MockResponse {
        if let problem = request.framingProblem {
            return refusal(status: 400, kind: "bad_framing", problem, verdict: "malformed")
        }
        if request.containsEncodedNUL {
            return refusal(status: 400, kind: "nul_in_target", "the path or query holds an encoded NUL (%00)", verdict: "malformed")
        }
        if request.method == "OPTIONS" { return preflight(request) }
        if request.bodyLimitExceeded {
            return refusal(status: 413, kind: "body_too_large", "the body is larger than the limit of \(options.maxBodyBytes) bytes",
                           verdict: "too-large")
        }
        let (endpoint, parameters): (Endpoint, [String: String])
        switch router.match(method: request.method, path: request.path) {
        case .endpoint(let matched, let bound):
            (endpoint, parameters) = (matched, bound)
        case .methodNotAllowed(let allowed):
            var response = refusal(status: 405, kind: "method_not_allowed",
                                   "\(request.method) is not declared for \(request.path); allowed: \(allowed.joined(separator: ", "))",
                                   extra: [.init("allowed", .array(allowed.map(JSONValue.string)))], verdict: "method")
            response.headers.append(("Allow", allowed.joined(separator: ", ")))
            return response
        case .notFound(let nearest):
            return refusal(status: 404, kind: "route_not_found", "no route for \(request.method) \(request.path)",
                           extra: [.init("nearest", .array(nearest.map(JSONValue.string)))], verdict: "no-route")
        }

        var body: JSONValue?
        if !request.body.isEmpty && endpoint.body != nil {
            let contentType = request.header("content-type") ?? ""
            guard RequestValidator.isJSON(contentType) else {
                return refusal(status: 415, kind: "unsupported_media_type",
                               "'\(endpoint.id)' takes application/json, found '\(contentType.isEmpty ? "no Content-Type" : contentType)'",
                               endpoint: endpoint, verdict: "media-type")
            }
            do {
                body = try JSONReader.read(request.body)
            } catch {
                var position: [JSONValue.Member] = [.init("offset", .int(error.offset)), .init("line", .int(error.line)),
                                                    .init("column", .int(error.column))]
                if let first = error.firstOccurrence {
                    position.append(.init("first", .object([.init("line", .int(first.line)), .init("column", .int(first.column))])))
                }
                return refusal(status: 400, kind: "malformed_json", "the body is not JSON: \(error)", extra: position,
                               endpoint: endpoint, verdict: "malformed")
            }
        }

        if let verifier, !isExempt(endpoint) {
            if case .failure(let rejection) = verifier.verify(header: { request.headers[$0] }, query: request.query, body: body,
                                                              now: state.clock.wallNow) {
                let code = rejection.failure.code
                let verdict = switch rejection.failure {
                case .signatureInvalid: "bad-signature"
                case .timestampOutsideWindow: "stale"
                case .nonceReused: "replay"
                case .nonceStoreFull: "overloaded"
                }
                var response = envelope(code: code, message: contract.service.code(code)?.message ?? rejection.message,
                                        data: .object([.init("reason", .string(rejection.message))] + Self.members(of: rejection.details)),
                                        endpoint: endpoint, verdict: verdict)
                if rejection.failure == .nonceStoreFull {
                    response.status = 503
                    response.headers.append(("Retry-After", String(contract.service.signing.nonceTTLSeconds)))
                }
                return response
            }
        }

        if endpoint.requiresAuth, let refused = authenticate(request, endpoint: endpoint, trace: &trace) { return refused }

        let violations = validator.validate(request, endpoint: endpoint, parameters: parameters, body: body)
        guard violations.isEmpty else {
            let list = JSONValue.array(violations.map { violation in
                .object([.init("pointer", .string(violation.pointer)), .init("expected", .string(violation.expected)),
                         .init("actual", .string(violation.actual)), .init("message", .string(violation.message))])
            })
            let message = violations.count == 1 ? violations[0].message : "\(violations.count) problems in the request"
            return refusal(status: nil, kind: "invalid_request", message, extra: [.init("violations", list)],
                           endpoint: endpoint, verdict: "invalid")
        }
        let injection: Injection?
        do {
            injection = try self.injection(for: request, endpoint: endpoint, trace: &trace)
        } catch {
            return refusal(status: 400, kind: "invalid_injection", error.message, endpoint: endpoint, verdict: "invalid")
        }
        var latency = 0
        switch injection {
        case .fault(.latency(let range))?: latency = state.random(in: range)
        case let injection?: return inject(injection, request: request, endpoint: endpoint, parameters: parameters, body: body)
        case nil: break
        }
        var response = answer(request, endpoint: endpoint, parameters: parameters, body: body, trace: &trace)
        response = completeAuthFlow(response, request: request, endpoint: endpoint, body: body, trace: &trace)
        response.delayMilliseconds += latency
        return response
    }

    // MARK: Answers

    func answer(_ request: MockRequest, endpoint: Endpoint, parameters: [String: String], body: JSONValue?,
                trace: inout Trace) -> MockResponse {
        guard let candidates = answers[endpoint.id] else {
            return refusal(status: 500, kind: "internal", "no answers compiled for '\(endpoint.id)'", verdict: "error")
        }
        let wantsStream = endpoint.stream.map { body?[$0.toggle] == .bool(true) } ?? false
        let chosen: Answer
        if let name = Self.preferredExample(request.headers["prefer"]) {
            guard let named = candidates.named.first(where: { $0.name == name }) else {
                let names = candidates.named.map(\.name)
                return refusal(status: 400, kind: "unknown_example",
                               "no fixture or example named '\(name)' for '\(endpoint.id)'; available: \(names.joined(separator: ", "))",
                               extra: [.init("available", .array(names.map(JSONValue.string)))], endpoint: endpoint, verdict: "no-example")
            }
            chosen = named
        } else {
            let context = MatchContext(request: request, parameters: parameters, body: body)
            let fits = { (answer: Answer) in (answer.events != nil) == wantsStream }
            chosen = candidates.fixtures.first { fits($0) && context.matches($0.matchers) }
                ?? candidates.defaultFixture.flatMap { fits($0) ? $0 : nil }
                ?? (wantsStream ? candidates.generatedStream : nil)
                ?? candidates.examples.first { fits($0) && $0.code == 0 }
                ?? candidates.generated
        }
        var context = TemplateContext(request: request, parameters: parameters, body: body, now: state.clock.now, state: state)
        if chosen.hasTokenHoles {
            if endpoint.id == contract.service.auth.refreshEndpoint {
                guard case .string(let token)? = body?["refresh_token"], let (uid, pair) = state.tokens.refresh(token) else {
                    return refreshRefused(endpoint)
                }
                (trace.user, context.issued, trace.tokensIssued) = (uid, pair, true)
            } else if let uid = chosen.loginUID {
                if let ban = state.tokens.ban(uid: uid) { return banned(ban, endpoint) }
                (trace.user, context.issued, trace.tokensIssued) = (uid, state.tokens.issue(uid: uid), true)
            }
        }
        let summary = MockResponse.Summary(endpoint: endpoint.id, source: chosen.label, code: chosen.code, verdict: "ok")
        if let events = chosen.events {
            return MockResponse(
                status: chosen.status,
                headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-cache")] + chosen.headers,
                body: .events(events.map { .init(data: $0.data.render(context), delayMilliseconds: $0.delayMilliseconds) }
                              + [.init(data: Array("[DONE]".utf8))]),
                delayMilliseconds: chosen.delayMilliseconds, summary: summary
            )
        }
        return MockResponse(
            status: chosen.status, headers: [("Content-Type", "application/json; charset=utf-8")] + chosen.headers,
            body: .bytes(chosen.envelope?.render(context) ?? []), delayMilliseconds: chosen.delayMilliseconds, summary: summary
        )
    }

    /// `example=NAME` in a `Prefer` header (RFC 7240), quoted or not.
    static func preferredExample(_ header: String?) -> String? {
        guard let header else { return nil }
        for preference in header.split(whereSeparator: { $0 == "," || $0 == ";" }) {
            let parts = preference.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0].lowercased() == "example" {
                return parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))
            }
        }
        return nil
    }

    /// A session name longer than rules and the journal keep is refused, not cut.
    private func sessionRefusal(_ session: String) -> MockResponse? {
        guard session.utf8.count > InjectionRule.maxSessionLength else { return nil }
        return refusal(status: 400, kind: "invalid_session",
                       "X-Accord-Session is longer than \(InjectionRule.maxSessionLength) bytes", verdict: "invalid")
    }

    private func isExempt(_ endpoint: Endpoint) -> Bool {
        contract.service.signing.exempt.contains { EndpointPattern.matches($0, endpoint.id) }
    }

    // MARK: Refusals

    private func preflight(_ request: MockRequest) -> MockResponse {
        let methods = router.methods(for: request.path)
        guard !methods.isEmpty else {
            return refusal(status: 404, kind: "route_not_found", "no route for \(request.path)", verdict: "no-route")
        }
        let allow = (methods + ["OPTIONS"]).joined(separator: ", ")
        guard let origin = options.corsAllowOrigin, request.header("access-control-request-method") != nil else {
            return MockResponse(status: 204, headers: [("Allow", allow)], summary: .init(verdict: "options"))
        }
        let contractHeaders = [contract.service.signing.appKeyHeader, contract.service.signing.timestampHeader,
                               contract.service.signing.nonceHeader, contract.service.signing.signatureHeader,
                               contract.service.auth.header, "Content-Type", "Prefer"] + contract.service.headers.map(\.name)
        return MockResponse(status: 204, headers: [
            ("Access-Control-Allow-Origin", origin),
            ("Access-Control-Allow-Methods", allow),
            ("Access-Control-Allow-Headers", request.header("access-control-request-headers") ?? contractHeaders.joined(separator: ", ")),
            ("Access-Control-Max-Age", "600"),
            ("Allow", allow),
        ], summary: .init(verdict: "preflight"))
    }

    /// A refusal in the envelope with the contract's violation code and `data.error`.
    func refusal(status: Int?, kind: String, _ message: String, extra: [JSONValue.Member] = [],
                         endpoint: Endpoint? = nil, verdict: String) -> MockResponse {
        let code = contract.service.validation.violationCode
        var response = envelope(code: code, message: message, data: .object([.init("error", .string(kind))] + extra),
                                endpoint: endpoint, verdict: verdict)
        if let status { response.status = status }
        return response
    }

    /// An envelope answer for `code`, with the code table's HTTP status.
    func envelope(code: Int, message: String, data: JSONValue, endpoint: Endpoint?, verdict: String) -> MockResponse {
        let names = contract.service.envelope
        let bytes = JSONWriter.bytes(.object([.init(names.code, .int(code)), .init(names.message, .string(message)), .init(names.data, data)]))
        return MockResponse(status: contract.service.code(code)?.httpStatus ?? 200,
                            headers: [("Content-Type", "application/json; charset=utf-8")], body: .bytes(bytes),
                            summary: .init(endpoint: endpoint?.id, code: code, verdict: verdict))
    }

    private static func members(of value: JSONValue) -> [JSONValue.Member] {
        if case .object(let members) = value { return members }
        return []
    }
}
