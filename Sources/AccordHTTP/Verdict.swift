/// How the engine judged one request: a word in the journal, the access log and the
/// reports, spelled on the wire as its raw value.
public enum Verdict: String, Sendable, Hashable, CaseIterable {
    /// Answered from a fixture, an example or the schema.
    case ok
    /// The request breaks the contract, or a steering header cannot be read.
    case invalid
    /// Framing, an encoded NUL or a body that is not JSON.
    case malformed
    /// The body is over the server's limit.
    case tooLarge = "too-large"
    /// The path exists with other methods.
    case method
    case noRoute = "no-route"
    case mediaType = "media-type"
    case badSignature = "bad-signature"
    /// The timestamp is outside the signing window.
    case stale
    /// The nonce was seen before.
    case replay
    /// The nonce store is full.
    case overloaded
    /// The access or refresh token is missing, expired, invalidated or revoked.
    case unauthorized
    /// The `Authorization` header is not `<scheme> <token>` (the proxy checks its shape only).
    case badToken = "bad-token"
    /// The upstream's answer breaks the contract (`accord proxy`).
    case drift
    /// The upstream could not be reached, timed out or answered beyond the limits (`accord proxy`).
    case upstreamFailed = "upstream-failed"
    case banned
    /// Steering headers from beyond loopback without the admin token.
    case forbidden
    /// A business code injected by a header, rule or scenario.
    case injected
    /// A transport fault injected by a header, rule or scenario.
    case fault
    /// `Prefer: example=NAME` names no answer.
    case noExample = "no-example"
    /// The engine could not answer (a bug, never a client's fault).
    case error
    /// The server's storage failed (a shared store unreachable): 503, never a client's fault.
    case storageUnavailable = "storage-unavailable"
    /// An `OPTIONS` request outside CORS.
    case options
    /// A CORS preflight.
    case preflight
    /// A call of the control API.
    case control
}

extension Verdict {
    /// What contract rule a request with this verdict broke, for reports; nil when the
    /// verdict is not a contract violation (an answer, a token flow, an injection, an
    /// overloaded server, CORS or control traffic).
    public var violatedRule: String? {
        switch self {
        case .invalid: "validation"
        case .malformed: "malformed request"
        case .tooLarge: "body too large"
        case .method: "method not allowed"
        case .noRoute: "unknown route"
        case .mediaType: "media type"
        case .badSignature: "signature"
        case .stale: "timestamp window"
        case .replay: "nonce replay"
        case .badToken: "token shape"
        case .ok, .drift, .upstreamFailed, .overloaded, .unauthorized, .banned, .forbidden, .injected, .fault, .noExample, .error, .storageUnavailable, .options, .preflight,
             .control: nil
        }
    }

    /// Whether a report counts the request: everything but CORS, `OPTIONS`, control
    /// calls and steering refused for want of the admin token.
    public var isObserved: Bool {
        switch self {
        case .options, .preflight, .control, .forbidden: false
        default: true
        }
    }
}
