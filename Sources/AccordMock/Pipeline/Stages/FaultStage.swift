import AccordHTTP
import AccordMockState
import AccordMocksFormat
/// Spoils the answer of the stages after it with what was injected: added latency, an
/// HTTP error with a text body, a reset or empty reply, a JSON body cut short, or a
/// body sent slowly.
struct FaultStage: Stage {
    let state: MockState

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        var response = try next(&exchange)
        guard let injection = exchange.injection else { return response }
        response.delayMilliseconds += injection.delayMilliseconds
        if let fault = exchange.fault {
            Self.apply(fault, to: &response)
            // The backend never saw the request: the HTTP stack's resend of it is no replay.
            if fault.losesTheAnswer, let signed = exchange.signedNonce { try state.nonces.release(appKey: signed.appKey, nonce: signed.nonce) }
        }
        return response
    }

    /// `response` as `fault` spoils it (a mock's answer or an upstream's).
    static func apply(_ fault: Injection.Fault, to response: inout MockResponse) {
        response.summary.verdict = .fault
        switch fault {
        case .httpStatus(let status):
            let reasons = [500: "Internal Server Error", 502: "Bad Gateway", 503: "Service Unavailable", 504: "Gateway Timeout"]
            response.status = status
            response.headers = [("Content-Type", "text/plain; charset=utf-8")] + (status == 503 ? [("Retry-After", "5")] : [])
            response.body = .bytes(Array((reasons[status] ?? "Server Error").utf8))
            response.summary.code = nil
        case .connectionReset:
            response.termination = .reset
        case .emptyReply:
            response.termination = .close
        case .malformedJSON:
            let bytes = response.bodyBytes
            response.body = .bytes(Array(bytes.prefix(max(1, bytes.count / 2))))
        case .slowBody(let delay):
            let bytes = response.bodyBytes
            let size = max(16, bytes.count / 8)
            response.body = .chunks(stride(from: 0, to: bytes.count, by: size).map {
                MockResponse.Chunk(bytes: Array(bytes[$0..<min($0 + size, bytes.count)]), delayMilliseconds: delay)
            })
        }
    }
}
