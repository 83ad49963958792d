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
    /// An `OPTIONS` request outside CORS.
    case options
    /// A CORS preflight.
    case preflight
    /// A call of the control API.
    case control
}
