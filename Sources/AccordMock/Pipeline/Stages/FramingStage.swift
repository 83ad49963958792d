import AccordHTTP
import AccordMockState
/// Refuses a message whose framing the transport found ambiguous, a target that is not
/// a path (origin-form, RFC 9112 §3.2.1: `@host:port/…`, `:port/…`, `http://host/…` and
/// `*` could steer a proxy's upstream URL elsewhere), and a target that holds an
/// encoded NUL; all before anything reads the request.
struct FramingStage: Stage {
    let envelopes: Envelopes

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        if let problem = exchange.request.framingProblem {
            return envelopes.refuse(&exchange, status: 400, kind: "bad_framing", problem, verdict: .malformed)
        }
        guard exchange.request.target.utf8.first == UInt8(ascii: "/") else {
            return envelopes.refuse(&exchange, status: 400, kind: "bad_target",
                                    "the request target '\(exchange.request.target.prefix(64))' is not a path starting with '/'",
                                    verdict: .malformed)
        }
        if exchange.request.containsEncodedNUL {
            return envelopes.refuse(&exchange, status: 400, kind: "nul_in_target", "the path or query holds an encoded NUL (%00)",
                                    verdict: .malformed)
        }
        return try next(&exchange)
    }
}
