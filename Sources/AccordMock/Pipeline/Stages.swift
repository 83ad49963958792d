import AccordContract
import AccordMockState
import AccordMocksFormat
import AccordSigning

/// Builds the stages of one contract: the mock's whole path
/// (``mock(state:fixtures:scenarios:collections:)``), the checks of captured requests
/// (``checks()``) and the proxy's gate (``gate(mode:state:scenarios:)``) each choose
/// theirs from the same parts, in the same order.
struct Stages {
    let contract: Contract
    let envelopes: Envelopes
    let router: Router
    let options: MockOptions
    let bodyLimits: BodyLimits
    /// The signature check, when signatures are verified and the contract signs requests.
    let signature: SignatureStage?

    /// - Parameters:
    ///   - nonces: what the signature check remembers (the state's, or a capture's own).
    ///   - clock: what it reads the time from (the state's, or one pinned to each captured request).
    init(contract: Contract, options: MockOptions, router: Router, bodyLimits: BodyLimits, nonces: any NonceStorage, clock: any ClockStorage) {
        self.contract = contract
        self.options = options
        self.router = router
        self.bodyLimits = bodyLimits
        let envelopes = Envelopes(service: contract.service)
        self.envelopes = envelopes
        let signing = contract.service.signing
        signature = options.verifiesSignatures && signing.isEnabled
            ? SignatureStage(verifier: SignatureVerifier(settings: signing), nonces: nonces, contract: contract, clock: clock, envelopes: envelopes)
            : nil
    }

    /// What every request meets first, the control API's and storage's too: framing and the body's limits.
    var gates: [any Stage] {
        [FramingStage(envelopes: envelopes), BodyLimitStage(limits: bodyLimits, envelopes: envelopes)]
    }

    /// The request checked as the contract says, after routing: the body decoded, the
    /// signature, the token (checked by `token`), the schema.
    func requestChecks(token: (any Stage)?) -> [any Stage] {
        [BodyStage(envelopes: envelopes) as any Stage, signature, token, ValidationStage(validator: RequestValidator(contract: contract), envelopes: envelopes)]
            .compactMap { $0 }
    }

    /// The mock's path, in the order a request meets it.
    func mock(state: MockState, fixtures: FixtureSet, scenarios: [String: Scenario], collections: [String: CollectionDefinition],
              flows: FlowMonitor? = nil) -> [any Stage] {
        let service = contract.service
        let answers = Dictionary(uniqueKeysWithValues: contract.endpoints.map { endpoint in
            (endpoint.id, AnswerCompiler(contract: contract, endpoint: endpoint).answers(fixtures: fixtures.fixtures(for: endpoint.id)))
        })
        let effects = EffectRunner(contract: contract, collections: collections, state: state, envelopes: envelopes, signer: HMACSigner())
        let grant = TokenGrant(tokens: state.tokens, auth: service.auth, envelopes: envelopes)
        // With a shared storage, the routed request's reads go ahead of it in one round trip.
        let preview: [any Stage] = state.storage.readsAhead ? [PreviewStage(storage: state.storage, auth: service.auth, answers: answers)] : []
        return [
            JournalStage(journal: state.journal, clock: state.clock, feed: state.events, flows: flows),
            ReportStage(observations: state.observations),
            StorageGuardStage(envelopes: envelopes),
            FramingStage(envelopes: envelopes),
            CORSStage(router: router, service: service, allowOrigin: options.corsAllowOrigin, envelopes: envelopes),
            SteeringStage(options: options, envelopes: envelopes),
            RouteStage(router: router, envelopes: envelopes),
            BodyLimitStage(limits: bodyLimits, envelopes: envelopes),
        ] + preview + requestChecks(token: AuthenticationStage(tokens: state.tokens, auth: service.auth, envelopes: envelopes)) + [
            injection(state: state, scenarios: scenarios),
            ChoiceStage(answers: answers, state: state, effects: effects, envelopes: envelopes),
            TokenStage(grant: grant, authHeader: service.auth.header.lowercased(), dataMember: service.envelope?.data),
            FaultStage(state: state),
            UploadStage(state: state, envelopes: envelopes, origin: options.publicOrigin),
            EffectStage(effects: effects),
            RenderStage(state: state, envelopes: envelopes),
        ]
    }

    /// Captured requests judged without answers: framing, routing and the checks (a
    /// capture's tokens belong to another server, so they are not checked).
    func checks() -> [any Stage] {
        [FramingStage(envelopes: envelopes), RouteStage(router: router, envelopes: envelopes)] + requestChecks(token: nil) + [AcceptStage()]
    }

    /// The proxy's stages before forwarding: those of the mock that judge the request,
    /// its token checked for shape only. An unknown route is forwarded with its refusal
    /// noted; so is a request that breaks the contract in ``ForwardingGate/Mode/report``.
    func gate(mode: ForwardingGate.Mode, state: MockState, scenarios: [String: Scenario]) -> [any Stage] {
        let checks = requestChecks(token: TokenShapeStage(auth: contract.service.auth, envelopes: envelopes))
        return [SteeringStage(options: options, envelopes: envelopes)] + gates + [
            UnjudgedStage(method: "OPTIONS"), NotedStage(RouteStage(router: router, envelopes: envelopes)),
        ] + (mode == .report ? checks.map { NotedStage($0) } : checks) + [injection(state: state, scenarios: scenarios)]
    }

    private func injection(state: MockState, scenarios: [String: Scenario]) -> InjectionStage {
        InjectionStage(state: state, contract: contract, scenarios: scenarios, defaultScenario: options.scenario, envelopes: envelopes, seed: options.seed)
    }
}
