import AccordContract
import AccordReport
import AccordSigning

/// Judges requests that were captured elsewhere (`accord check-requests`) with the
/// server's own stages, without answering them: framing, routing, the JSON body, the
/// signature (timestamp window and nonce replay at the time each was sent) and
/// validation. Tokens are not checked: a capture's tokens belong to another server.
///
/// Requests must be checked in the order they were sent, one at a time: the clock is
/// pinned to each request's time and the nonce store remembers the earlier ones.
public struct RequestChecker: Sendable {
    public let contract: Contract
    private let clock = MockClock(wall: 0)
    private let pipeline: Pipeline
    private let envelope: Service.Envelope
    private let router: Router

    /// - Parameter verifiesSignatures: false to skip X-Sign (the capture's app secret is unknown).
    public init(contract: Contract, verifiesSignatures: Bool = true) {
        self.contract = contract
        let service = contract.service
        envelope = service.envelope
        let envelopes = Envelopes(service: service)
        let router = Router(contract: contract)
        self.router = router
        var routed: [any RoutedStage] = [BodyStage(envelopes: envelopes)]
        if verifiesSignatures && service.signing.isEnabled {
            let nonces = NonceCache(ttlSeconds: service.signing.nonceTTLSeconds)
            routed.append(SignatureStage(verifier: SignatureVerifier(settings: service.signing, nonces: nonces), contract: contract,
                                         clock: clock, envelopes: envelopes))
        }
        routed += [ValidationStage(validator: RequestValidator(contract: contract), envelopes: envelopes), AcceptStage()]
        pipeline = Pipeline(
            screening: [FramingStage(envelopes: envelopes)],
            routing: RouteStage(router: router, envelopes: envelopes),
            routed: routed,
            finishing: [],
            unanswered: { exchange in
                envelopes.refusal(status: 500, kind: "internal", "no stage judged \(exchange.request.method) \(exchange.request.path)",
                                  verdict: .error)
            }
        )
    }

    /// The verdict on `request`, sent at `time` (Unix seconds), as a report counts it.
    public func check(_ request: MockRequest, sentAt time: Int64) -> Observation {
        clock.pinWall(to: time)
        let (response, exchange) = pipeline.process(request)
        return ReportStage.observation(of: response, for: exchange, envelope: envelope, router: router)
    }
}
