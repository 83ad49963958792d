import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordMocksFormat
import AccordValidation

/// One request on its way through the stages, and what they learned of it, as typed
/// values: the route, the decoded body, the injection, the answer being built, and
/// why the request was refused. Journal, report and live feed read these; nothing
/// re-parses an answer or re-runs the router.
struct Exchange: Sendable {
    let request: MockRequest
    /// The session the journal, rules and scenarios file the request under.
    private(set) var session: String
    /// The user its access token belongs to, once authenticated (or its tokens issued).
    private(set) var user: Int?
    /// The endpoint, once routed.
    var route: Route?
    /// The path parameters, percent-decoded, once routed.
    var parameters: [String: String] = [:]
    /// The JSON body, once decoded; for a multipart body, its text parts as strings
    /// (what templates read and the signature covers).
    var body: JSONValue?
    /// The parts of a multipart body, once split.
    var parts: [MultipartBody.Part]?
    /// What a header, rule or scenario injected, and which of them did.
    var injection: Injected?
    /// The answer being built: the fixture chosen and what its templates read.
    var draft: Draft?
    /// Why a stage refused the request (set with the refusal it answered).
    var refusal: Refusal?
    /// What a check would have answered a request the proxy forwards anyway (``NotedStage``).
    var noted: MockResponse?
    /// Whether the request went past the last stage (the check pipelines end there).
    var passed = false
    /// When the journal stage took the request and gave its answer, in Unix microseconds.
    var timing: (sent: Int64, answered: Int64)?
    /// The app key and nonce of a signed request the signature stage accepted.
    var signedNonce: (appKey: String, nonce: String)?

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

    /// The injected fault, when one spoils the answer.
    var fault: Injection.Fault? {
        if case .fault(let fault)? = injection?.action { fault } else { nil }
    }

    /// Whether the client gets the answer whole: no injected fault loses it. A lost
    /// answer stands for a failure before the backend: the request changes no state.
    var answerIsDelivered: Bool { fault?.losesTheAnswer != true }
}

/// The endpoint a request was routed to: one reference per endpoint, made with the
/// ``Router`` and shared by every request routed there, so none copies the endpoint.
final class Route: Sendable {
    let endpoint: Endpoint

    init(endpoint: Endpoint) {
        self.endpoint = endpoint
    }
}

/// What was injected into one request and by what.
struct Injected: Sendable {
    /// Nil for a scenario step that names a fixture instead.
    var action: Injection?
    /// `header`, `rule:3`, `scenario:token-expiry#1`.
    var source: String
    /// The fixture a scenario step names for the answer, as `Prefer: example=NAME` does.
    var fixture: String?
    /// The injected latency, drawn once.
    var delayMilliseconds = 0
    /// The answer of an injected business code, made when it was found.
    var answer: MockResponse?

    init(action: Injection?, source: String, fixture: String? = nil) {
        self.action = action
        self.source = source
        self.fixture = fixture
    }
}

/// The answer ``ChoiceStage`` chose, and what the stages after it add for its templates.
struct Draft: Sendable {
    var answer: Answer
    var context: TemplateContext
    /// The answer's body around the `data` its effects built.
    var built: [UInt8]?
}

/// Why a request was refused, as the stage that refused it typed it.
struct Refusal: Sendable {
    var verdict: Verdict
    var message: String
    /// The refusal's `data` members (`error`, the limit, the nearest routes, `sorted_params`).
    var details: [JSONValue.Member]
    /// Each way the request broke its endpoint's schema, with its pointer.
    var violations: [Violation]
}
