import AccordContract
import AccordHTTP
import AccordMockState
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
    private let router: Router

    /// - Parameter verifiesSignatures: false to skip X-Sign (the capture's app secret is unknown).
    public init(contract: Contract, verifiesSignatures: Bool = true) {
        self.contract = contract
        var options = MockOptions()
        options.verifiesSignatures = verifiesSignatures
        router = Router(contract: contract)
        let stages = Stages(contract: contract, options: options, router: router,
                            bodyLimits: BodyLimits(contract: contract, router: router, json: options.maxBodyBytes),
                            nonces: NonceCache(ttlSeconds: contract.service.signing.nonceTTLSeconds), clock: clock)
        pipeline = Pipeline(stages: stages.checks())
    }

    /// The verdict on `request`, sent at `time` (Unix seconds), as a report counts it;
    /// nil for a request a report does not count: `OPTIONS` to a route, which the server
    /// answers itself (CORS).
    public func check(_ request: MockRequest, sentAt time: Int64) -> Observation? {
        if request.method == "OPTIONS", !router.methods(for: request.path).isEmpty { return nil }
        clock.pinWall(to: time)
        let (response, exchange) = pipeline.process(request)
        return ReportStage.observation(of: response, for: exchange)
    }
}
