import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordSigning
import AccordValidation

/// Verifies `X-Sign`, the timestamp window and the nonce of every endpoint the
/// contract does not exempt, answering with the contract's signing codes.
struct SignatureStage: Stage {
    let verifier: SignatureVerifier
    /// Where each correctly signed request's nonce is checked and kept.
    let nonces: any NonceStorage
    /// Endpoint ids that need no signature, resolved from the contract's patterns once.
    let exempt: Set<String>
    let clock: any ClockStorage
    let envelopes: Envelopes

    init(verifier: SignatureVerifier, nonces: any NonceStorage, contract: Contract, clock: any ClockStorage, envelopes: Envelopes) {
        self.verifier = verifier
        self.nonces = nonces
        exempt = contract.unsignedEndpoints
        self.clock = clock
        self.envelopes = envelopes
    }

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard let route = exchange.route, !exempt.contains(route.endpoint.id) else { return try next(&exchange) }
        let request = exchange.request
        if let body = exchange.body, SortedParams.containsDouble(body), let pointer = SortedParams.pointerToIntegerOutOfRange(in: body) {
            // Not a signature mismatch: no integer the contract takes can be that large, and no rule signs it as one.
            let violation = Violation(pointer: "/body" + pointer, expected: "integer within the signed 64-bit range",
                                      actual: "an integer beyond it", message: "/body\(pointer): an integer beyond the signed 64-bit range")
            return envelopes.refuse(&exchange, status: nil, kind: "invalid_request", violation.message, violations: [violation], verdict: .invalid)
        }
        let now = try clock.wallNow
        switch verifier.verify(header: { request.headers[$0] }, query: request.query, body: exchange.body, now: now) {
        case .failure(let rejection):
            return refuse(&exchange, rejection)
        case .success(let signed):
            switch try nonces.insert(appKey: signed.appKey, nonce: signed.nonce, now: now) {
            case .accepted:
                exchange.signedNonce = (signed.appKey, signed.nonce)
                return try next(&exchange)
            case .reused: return refuse(&exchange, verifier.replayed(signed))
            case .full: return refuse(&exchange, verifier.nonceStoreFull(capacity: nonces.capacity))
            }
        }
    }

    /// The contract's signing code for `rejection`, with its reason and details; 503 when the nonce store is full.
    private func refuse(_ exchange: inout Exchange, _ rejection: SignatureVerifier.Rejection) -> MockResponse {
        let (role, verdict): (FlowCodes.Role, Verdict) = switch rejection.failure {
        case .signatureInvalid: (.signatureInvalid, .badSignature)
        case .timestampOutsideWindow: (.timestampInvalid, .stale)
        case .nonceReused: (.nonceReused, .replay)
        case .nonceStoreFull: (.nonceReused, .overloaded)
        }
        var details: [JSONValue.Member] = [.init("reason", .string(rejection.message))]
        if case .object(let members) = rejection.details { details += members }
        var response = envelopes.refuse(&exchange, code: envelopes.codes[role], fallback: rejection.message, details: details, verdict: verdict)
        if rejection.failure == .nonceStoreFull {
            response.status = 503
            response.headers.append(("Retry-After", String(envelopes.service.signing.nonceTTLSeconds)))
        }
        return response
    }
}
