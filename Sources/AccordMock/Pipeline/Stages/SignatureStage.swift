import AccordContract
import AccordJSON
import AccordSigning

/// Verifies `X-Sign`, the timestamp window and the nonce of every endpoint the
/// contract does not exempt, answering with the contract's signing codes.
struct SignatureStage: RoutedStage {
    let verifier: SignatureVerifier
    /// Endpoint ids that need no signature, resolved from the contract's patterns once.
    let exempt: Set<String>
    let clock: any ClockStorage
    let envelopes: Envelopes

    init(verifier: SignatureVerifier, contract: Contract, clock: any ClockStorage, envelopes: Envelopes) {
        self.verifier = verifier
        exempt = contract.unsignedEndpoints
        self.clock = clock
        self.envelopes = envelopes
    }

    func run(_ exchange: inout Exchange, route: Route) -> StageResult {
        guard !exempt.contains(route.endpoint.id) else { return .proceed }
        let request = exchange.request
        guard case .failure(let rejection) = verifier.verify(header: { request.headers[$0] }, query: request.query, body: exchange.body,
                                                             now: clock.wallNow) else { return .proceed }
        let (role, verdict): (FlowCodes.Role, Verdict) = switch rejection.failure {
        case .signatureInvalid: (.signatureInvalid, .badSignature)
        case .timestampOutsideWindow: (.timestampInvalid, .stale)
        case .nonceReused: (.nonceReused, .replay)
        case .nonceStoreFull: (.nonceReused, .overloaded)
        }
        var details: [JSONValue.Member] = [.init("reason", .string(rejection.message))]
        if case .object(let members) = rejection.details { details += members }
        var response = envelopes.answer(code: envelopes.codes[role], fallback: rejection.message, data: .object(details),
                                        endpoint: route.endpoint.id, verdict: verdict)
        if rejection.failure == .nonceStoreFull {
            response.status = 503
            response.headers.append(("Retry-After", String(envelopes.service.signing.nonceTTLSeconds)))
        }
        return .answer(response)
    }
}
