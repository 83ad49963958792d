import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordMocksFormat
import AccordReport
import AccordValidation

/// The mock's stages for requests a real backend answers (`accord proxy`): what the
/// engine decides before forwarding, and what it makes of the upstream's answer.
///
/// Before: the control API, steering, framing and the body limit answer as in the
/// mock; then the request is routed and checked as the mock checks it (JSON body,
/// `X-Sign` with its timestamp window and nonce, the token's shape, the contract).
/// A request that breaks the contract is refused in ``Mode/strict`` and forwarded in
/// ``Mode/report``; either way it is reported. Injection (header, rules, scenarios)
/// then runs as in the mock: an injected business code answers instead of the
/// upstream, an injected fault spoils the upstream's answer (``prepare(_:for:)``).
/// Unknown routes and `OPTIONS` are forwarded unjudged.
///
/// After: ``check(_:for:)`` holds the answer to the contract, ``record(_:for:check:)``
/// files the exchange in the journal and the report, each failure with its side.
public struct ForwardingGate: Sendable {
    /// What happens to a request that breaks the contract.
    public enum Mode: String, Sendable, CaseIterable {
        /// Forward it and report it.
        case report
        /// Refuse it with the mock's answer; the upstream never sees it.
        case strict
    }

    /// What the gate decided.
    public enum Admission: Sendable {
        /// Answered here: a control call, a refusal, an injected business code.
        case answer(MockResponse)
        /// To be forwarded.
        case forward(Forwarding)
    }

    /// The engine whose contract, state and control API the gate uses.
    public let engine: MockEngine
    public let mode: Mode
    private let pipeline: Pipeline
    private let journal: JournalStage
    private let responses: ResponseChecker
    private let envelopes: Envelopes

    /// Headers that steer Accord itself; they are not forwarded.
    public static let steeringHeaders: Set<String> = [InjectionStage.header, InjectionStage.scenarioHeader, MockEngine.sessionHeader,
                                                       CredentialHeaders.adminToken]

    public init(engine: MockEngine, mode: Mode) {
        self.engine = engine
        self.mode = mode
        let contract = engine.contract
        let state = engine.state
        let stages = Stages(contract: contract, options: engine.options, router: Router(contract: contract), bodyLimits: engine.bodyLimits,
                            nonces: state.nonces, clock: state.clock)
        envelopes = stages.envelopes
        pipeline = Pipeline(stages: stages.gate(mode: mode, state: state, scenarios: engine.scenarios))
        journal = JournalStage(journal: state.journal, clock: state.clock, feed: state.events)
        responses = ResponseChecker(contract: contract)
    }

    /// Answers `request` here, or hands it on to be forwarded.
    public func admit(_ request: MockRequest) -> Admission {
        if request.path.hasPrefix(MockEngine.controlPrefix) { return .answer(engine.handle(request)) }
        let (response, exchange) = pipeline.process(request)
        guard exchange.passed else { return .answer(finished(response, exchange)) }
        if let injected = exchange.injection?.answer { return .answer(finished(injected, exchange)) }
        return .forward(Forwarding(exchange: exchange, observed: request.method != "OPTIONS"))
    }

    /// How the upstream's answer to `forwarding` keeps to the contract.
    public func check(_ answer: MockResponse, for forwarding: Forwarding) -> AnswerCheck {
        guard let endpoint = forwarding.endpoint else { return AnswerCheck(code: nil, violations: []) }
        let bytes = answer.bodyBytes
        let contentType = answer.header("content-type")
        // An envelope is read once, for its code and its check; anything else is named by the checker.
        guard !ResponseChecker.isEventStream(contentType), let envelope = try? JSONReader.read(bytes) else {
            return AnswerCheck(code: nil, violations: responses.check(endpoint: endpoint, status: answer.status, contentType: contentType, body: bytes))
        }
        let code = engine.contract.service.code(of: envelope, status: answer.status)
        return AnswerCheck(code: code, violations: responses.check(endpoint: endpoint, status: answer.status, envelope: envelope))
    }

    /// The upstream's answer as an injected fault spoils it (latency, an HTTP error, a
    /// reset, a cut or slow body); unchanged without one.
    public func prepare(_ answer: MockResponse, for forwarding: Forwarding) -> MockResponse {
        var answer = answer
        answer.delayMilliseconds += forwarding.exchange.injection?.delayMilliseconds ?? 0
        if let fault = forwarding.exchange.fault { FaultStage.apply(fault, to: &answer) }
        return answer
    }

    /// Files the forwarded exchange in the journal and the report: the request's
    /// failure (if any), then the answer's, each with its side. Returns the answer
    /// with its summary (endpoint, code, verdict, problems) for the access log.
    @discardableResult
    public func record(_ answer: MockResponse, for forwarding: Forwarding, check: AnswerCheck) -> MockResponse {
        var answer = answer
        guard forwarding.observed else { return answer }
        answer.summary.endpoint = forwarding.endpoint?.id
        answer.summary.code = check.code
        answer.summary.source = "upstream"
        if answer.summary.verdict == .ok {
            answer.summary.verdict = forwarding.refusal?.summary.verdict ?? (check.violations.isEmpty ? .ok : .drift)
        }
        let exchange = forwarding.exchange
        let problems = forwarding.requestProblems + check.violations.map { JournalEntry.Problem(side: .response, pointer: $0.pointer, message: $0.message) }
        answer.summary.problems = problems.count
        journal.file(&answer, for: exchange, problems: problems)
        guard answer.summary.verdict.isObserved else { return answer }
        var observation = ReportStage.observation(of: forwarding.refusal ?? answer, for: exchange)
        observation.endpoint = forwarding.endpoint?.id
        observation.answer = "upstream"
        observation.code = check.code
        if !check.violations.isEmpty && !observation.injected {
            observation.failures.append(responseFailure(answer, for: exchange, violations: check.violations))
        }
        engine.state.observations.record(observation)
        return answer
    }

    /// The answer when no answer came from the upstream: HTTP 502 (504 for a timeout,
    /// 503 when the proxy is saturated) with the refusal envelope naming the cause
    /// (`upstream_unreachable`, `upstream_timeout`, `upstream_too_large`,
    /// `upstream_failed`, `proxy_saturated`); filed in the journal and the report.
    public func upstreamFailure(_ cause: UpstreamFailure, message: String, for forwarding: Forwarding) -> MockResponse {
        var response = envelopes.refusal(status: cause.status, kind: cause.rawValue, message, verdict: .upstreamFailed)
        response.summary.endpoint = forwarding.endpoint?.id
        if cause == .saturated { response.headers.append(("Retry-After", "1")) }
        response.summary.source = "accord proxy"
        response.summary.problems = forwarding.requestProblems.count
        let exchange = forwarding.exchange
        journal.file(&response, for: exchange, problems: forwarding.requestProblems)
        if forwarding.observed {
            engine.state.observations.record(ReportStage.observation(of: forwarding.refusal ?? response, for: exchange))
        }
        return response
    }

    /// Why the upstream gave no answer.
    public enum UpstreamFailure: String, Sendable {
        case unreachable = "upstream_unreachable"
        case timeout = "upstream_timeout"
        case tooLarge = "upstream_too_large"
        case failed = "upstream_failed"
        /// Every upstream worker is busy and the queue is full: HTTP 503.
        case saturated = "proxy_saturated"

        var status: Int {
            switch self {
            case .timeout: 504
            case .saturated: 503
            case .unreachable, .tooLarge, .failed: 502
            }
        }
    }

    /// An answer made here passes the journal and the report like the mock's.
    private func finished(_ response: MockResponse, _ exchange: Exchange) -> MockResponse {
        var response = response
        response.summary.endpoint = exchange.route?.endpoint.id
        journal.file(&response, for: exchange, problems: JournalStage.problems(of: exchange))
        if response.summary.verdict.isObserved { engine.state.observations.record(ReportStage.observation(of: response, for: exchange)) }
        return response
    }

    private func responseFailure(_ answer: MockResponse, for exchange: Exchange, violations: [Violation]) -> Observation.Failure {
        var details: [JSONValue.Member] = [
            .init("method", .string(exchange.request.method)), .init("path", .string(exchange.request.path)),
            .init("session", .string(exchange.session)), .init("status", .int(answer.status)),
        ]
        if let code = answer.summary.code { details.append(.init("code", .int(code))) }
        details.append(.init("violations", .array(violations.map(\.json))))
        let kind = answer.summary.code.map { "response (\($0))" } ?? "response (HTTP \(answer.status))"
        let message = violations.count == 1 ? violations[0].message : "\(Violation.count(of: violations, in: "answer")): \(violations[0].message)"
        return Observation.Failure(side: .response, kind: kind, message: message, details: .object(details))
    }
}

/// A request on its way to the upstream, and what the gate learned of it.
public struct Forwarding: Sendable {
    let exchange: Exchange
    /// Whether the journal and the report count it (not `OPTIONS`).
    let observed: Bool
    /// How the request breaks the contract, one problem per violation (none for an unknown route).
    let requestProblems: [JournalEntry.Problem]

    init(exchange: Exchange, observed: Bool) {
        self.exchange = exchange
        self.observed = observed
        requestProblems = exchange.noted == nil ? [] : JournalStage.problems(of: exchange)
    }

    /// The endpoint it reached; nil for an unknown route.
    public var endpoint: Endpoint? { exchange.route?.endpoint }

    /// What the mock would have answered a request that breaks the contract (forwarded
    /// in ``ForwardingGate/Mode/report``), or the 404/405 of an unknown route.
    public var refusal: MockResponse? { exchange.noted }

    /// The session the request belongs to (`X-Accord-Session`, else `anonymous`).
    public var session: String { exchange.session }

    /// The path parameters, percent-decoded, by name.
    public var parameters: [String: String] { exchange.parameters }

    /// The JSON body, when it is one.
    public var body: JSONValue? { exchange.body }

    /// Whether a header, rule or scenario injected a fault into the answer.
    public var isInjected: Bool { exchange.injection != nil }

    /// An injected fault that replaces the upstream's answer or cuts it (anything but latency).
    public var spoilsAnswer: Bool { exchange.fault != nil }

    /// Whether the request asks the endpoint for a server-sent event stream.
    public var wantsStream: Bool {
        guard let stream = endpoint?.stream else { return false }
        return exchange.body?[stream.toggle] == .bool(true)
    }

    /// How many problems the request and `check` found, for `X-Accord-Violations`.
    public func violationCount(_ check: AnswerCheck) -> Int {
        requestProblems.count + check.violations.count
    }
}

/// What ``ForwardingGate/check(_:for:)`` found in an upstream's answer.
public struct AnswerCheck: Sendable {
    /// The envelope's business code, when the answer is one.
    public var code: Int?
    public var violations: [Violation]

    public init(code: Int?, violations: [Violation]) {
        self.code = code
        self.violations = violations
    }
}
