import AccordContract
import AccordJSON

/// One request on its way through the stages, and what they learned of it.
struct Exchange: Sendable {
    let request: MockRequest
    /// The session the journal, rules and scenarios file the request under.
    var session: String
    /// The user its access token belongs to, once authenticated (or its tokens issued).
    var user: Int?
    /// What injected its answer: `header`, `rule:3`, `scenario:token-expiry#1`.
    var injected: String?
    /// The path parameters, percent-decoded, once routed.
    var parameters: [String: String] = [:]
    /// The JSON body, once decoded; for a multipart body, its text parts as strings
    /// (what templates read and the signature covers).
    var body: JSONValue?
    /// The parts of a multipart body, once split.
    var parts: [MultipartBody.Part]?
    /// The fixture a scenario step names for the answer, as `Prefer: example=NAME` does.
    var fixture: String?
    /// A transport fault to apply to the answer (injected latency is in `addedDelay`).
    var fault: Injection.Fault?
    /// Injected latency, in milliseconds, added to the answer's own delay.
    var addedDelay = 0
    /// Tokens were issued while rendering (login or refresh answers with holes).
    var tokensIssued = false
    /// The answer, once a stage has made one.
    var response: MockResponse?

    /// Whether the request named its session (`X-Accord-Session`).
    private let namesSession: Bool

    init(request: MockRequest) {
        self.request = request
        let named = request.headers[MockEngine.sessionHeader]
        namesSession = named != nil
        session = named ?? "anonymous"
    }

    /// The request belongs to `uid`; a request that named no session is filed under the user.
    mutating func identify(_ uid: Int) {
        user = uid
        if !namesSession { session = "user:" + String(uid) }
    }
}

/// The endpoint a request was routed to and its path parameters, percent-decoded.
struct Route: Sendable {
    var endpoint: Endpoint
    var parameters: [String: String]
}

/// What a stage does with a request: passes it on, or ends it with an answer.
enum StageResult: Sendable {
    case proceed
    case answer(MockResponse)
}

/// A stage that runs before the request is routed (framing, steering, CORS preflight, limits).
protocol RequestStage: Sendable {
    func run(_ exchange: inout Exchange) -> StageResult
}

/// A stage that runs on a routed request (body, signature, authentication, validation,
/// injection, answer, token flows, faults).
protocol RoutedStage: Sendable {
    func run(_ exchange: inout Exchange, route: Route) -> StageResult
}

/// A stage that sees every answer on its way out, whichever stage made it (CORS, journal).
protocol ResponseStage: Sendable {
    func finish(_ response: inout MockResponse, for exchange: Exchange)
}
