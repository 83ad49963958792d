import AccordHTTP
import AccordMockState

/// Answers a storage failure of any later stage: 503 with `Retry-After: 1` and the
/// kind `storage_unavailable`, in the contract's envelope. It stands right inside the
/// journal and the report, so both see the failure as a typed refusal.
struct StorageGuardStage: Stage {
    let envelopes: Envelopes

    func respond(to exchange: inout Exchange, next: Next) -> MockResponse {
        do {
            return try next(&exchange)
        } catch {
            var response = envelopes.refuse(&exchange, status: 503, kind: "storage_unavailable", "the server's storage failed: \(error)",
                                            verdict: .storageUnavailable)
            response.headers.append(("Retry-After", "1"))
            response.summary.failure = "\(error)"
            return response
        }
    }
}
