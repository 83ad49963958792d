import AccordContract
import AccordReport
import AccordSigning
import AccordValidation

/// The mock backend as a pure function of (contract, fixtures, shared state, request)
/// → response. The HTTP adapter only moves bytes; everything a client can observe is
/// decided here, so it is tested in-process without a socket.
///
/// A request goes through a ``Pipeline`` of small stages, each with one job: steering,
/// framing, CORS preflight, body limit; routing; body decoding, signature,
/// authentication, validation, injection, the answer (fixture selection, templating),
/// the token flows and faults; then CORS headers and the journal on the way out. The
/// control API under `/__accord/` is answered beside the pipeline.
public struct MockEngine: Sendable {
    public let contract: Contract
    public let options: MockOptions
    public let state: MockState
    /// Scenarios by name, from `mocks/scenarios/`.
    public let scenarios: [String: Scenario]
    /// Each endpoint's fixtures as the journal and the report name them (`fixture:NAME`).
    public let fixtureLabels: [String: [String]]
    /// Collections by name, from `mocks/collections/`.
    public let collections: [String: CollectionDefinition]
    /// How large each request's body may be; the transport asks before reading one.
    public let bodyLimits: BodyLimits
    let pipeline: Pipeline
    /// What every request meets first, the control API's and storage's too: framing and
    /// the body's limits (the pipeline runs the same stages for API requests).
    private let gates: [any RequestStage]

    /// Where uploaded files are written (`PUT`, with a signed policy) and served back
    /// (`GET`): outside the base path and the control API, so a device reaches it.
    public static let storagePrefix = "/__storage/"

    /// The header that names the session a request belongs to.
    static let sessionHeader = "x-accord-session"

    public init(contract: Contract, fixtures: FixtureSet, scenarios: [String: Scenario] = [:], collections: [String: CollectionDefinition] = [:],
                options: MockOptions = MockOptions(), state: MockState) {
        self.contract = contract
        self.collections = collections
        self.options = options
        self.state = state
        self.scenarios = scenarios
        fixtureLabels = fixtures.byEndpoint.mapValues { $0.map { "fixture:" + $0.name } }
        let router = Router(contract: contract)
        let envelopes = Envelopes(service: contract.service)
        bodyLimits = BodyLimits(contract: contract, router: router, json: options.maxBodyBytes)
        gates = [FramingStage(envelopes: envelopes), BodyLimitStage(limits: bodyLimits, envelopes: envelopes)]
        pipeline = Self.pipeline(contract: contract, fixtures: fixtures, scenarios: scenarios, collections: collections, options: options,
                                 state: state, router: router, gates: gates)
    }

    /// Answers one request.
    public func handle(_ request: MockRequest) -> MockResponse {
        let control = request.path.hasPrefix(Self.controlPrefix)
        guard control || request.path.hasPrefix(Self.storagePrefix) else { return pipeline.run(request) }
        // No control call or upload runs on a message whose framing or size the transport refused.
        var exchange = Exchange(request: request)
        for gate in gates {
            if case .answer(let refusal) = gate.run(&exchange) { return refusal }
        }
        return control ? self.control(request) : storage(request)
    }

    /// The report of every request the server answered so far.
    public func report(title: String = "accord serve") -> ContractReport {
        ContractReport(title: title, contract: contract, answers: fixtureLabels, observed: state.observations.snapshot)
    }

    /// The stages, in the order a request meets them.
    private static func pipeline(contract: Contract, fixtures: FixtureSet, scenarios: [String: Scenario],
                                 collections: [String: CollectionDefinition], options: MockOptions, state: MockState,
                                 router: Router, gates: [any RequestStage]) -> Pipeline {
        let service = contract.service
        let envelopes = Envelopes(service: service)
        let grant = TokenGrant(tokens: state.tokens, auth: service.auth, envelopes: envelopes)
        let answers = Dictionary(uniqueKeysWithValues: contract.endpoints.map { endpoint in
            (endpoint.id, AnswerCompiler(contract: contract, endpoint: endpoint).answers(fixtures: fixtures.fixtures(for: endpoint.id)))
        })
        var routed: [any RoutedStage] = [BodyStage(envelopes: envelopes)]
        if options.verifiesSignatures && service.signing.isEnabled {
            let verifier = SignatureVerifier(settings: service.signing, nonces: state.nonces)
            routed.append(SignatureStage(verifier: verifier, contract: contract, clock: state.clock, envelopes: envelopes))
        }
        routed += [
            AuthenticationStage(tokens: state.tokens, auth: service.auth, envelopes: envelopes) as any RoutedStage,
            ValidationStage(validator: RequestValidator(contract: contract), envelopes: envelopes),
            InjectionStage(state: state, contract: contract, scenarios: scenarios, defaultScenario: options.scenario, envelopes: envelopes),
            AnswerStage(answers: answers, state: state, grant: grant, envelopes: envelopes,
                        effects: EffectRunner(contract: contract, collections: collections, state: state, envelopes: envelopes),
                        origin: options.publicOrigin),
            TokenFlowStage(grant: grant, authHeader: service.auth.header.lowercased(), envelopeNames: service.envelope),
            FaultStage(state: state),
        ]
        var finishing: [any ResponseStage] = []
        if let origin = options.corsAllowOrigin { finishing.append(CORSStage(allowOrigin: origin)) }
        finishing.append(JournalStage(journal: state.journal, clock: state.clock, feed: state.events, envelope: service.envelope))
        finishing.append(ReportStage(observations: state.observations, envelope: service.envelope, router: router))
        return Pipeline(
            screening: [SteeringStage(options: options, envelopes: envelopes)] + gates + [
                PreflightStage(router: router, service: service, corsAllowOrigin: options.corsAllowOrigin, envelopes: envelopes),
            ],
            routing: RouteStage(router: router, envelopes: envelopes),
            routed: routed,
            finishing: finishing,
            unanswered: { exchange in
                envelopes.refusal(status: 500, kind: "internal", "no stage answered \(exchange.request.method) \(exchange.request.path)",
                                  verdict: .error)
            }
        )
    }
}
