import AccordContract
import AccordMocksFormat

/// A fixture, contract example or generated value, compiled for serving.
struct Answer: Sendable {
    enum Origin: String, Sendable {
        case fixture, example, generated
    }

    var name: String
    var origin: Origin
    /// `fixture:NAME`, `example:NAME` or `generated`, for logs.
    var label: String
    var matchers: [Matcher]
    var isDefault: Bool
    var status: Int
    var headers: [(name: String, value: String)]
    var delayMilliseconds: Int
    var code: Int
    /// The whole envelope, or nil for a stream.
    var envelope: CompiledJSON?
    /// The events of a stream, each with its delay.
    var events: [(data: CompiledJSON, delayMilliseconds: Int)]?
    /// For a login answer: the user the tokens are issued to, when the answer states it
    /// literally (`data.user.uid`); nil when it is templated or absent.
    var loginUID: Int?
    /// The issued tokens are holes in `envelope`, filled while rendering.
    var hasTokenHoles = false
    /// `when: {state: …}`: conditions on the session's collections, checked after the matchers.
    var conditions: [StateCondition] = []
    /// What the fixture does to collections before it answers.
    var effects: [Effect] = []
    /// The fixture's `data`, for an answer built by its effects.
    var effectData: TemplatedJSON?

    /// Whether any template of the answer (its body, events, effects or state conditions) holds `expression`.
    func uses(_ expression: TemplateExpression) -> Bool {
        envelope?.uses(expression) == true || events?.contains { $0.data.uses(expression) } == true || effectData?.uses(expression) == true
            || effects.contains { $0.uses(expression) } || conditions.contains { $0.filter.uses(expression) }
    }
}

/// Everything one endpoint can answer, in the order they are tried.
struct EndpointAnswers: Sendable {
    /// Fixtures that are not the default, by priority (highest first), then as written.
    var fixtures: [Answer] = []
    var defaultFixture: Answer?
    var examples: [Answer] = []
    var generated: Answer
    var generatedStream: Answer?
    /// The path parameters the contract declares as integers, which templates read as numbers.
    var integerParameters: Set<String> = []

    /// Every named answer, for `Prefer: example=NAME`.
    var named: [Answer] { fixtures + [defaultFixture].compactMap { $0 } + examples }

    /// Whether any answer of the endpoint holds `expression`.
    func uses(_ expression: TemplateExpression) -> Bool {
        (named + [generated] + [generatedStream].compactMap { $0 }).contains { $0.uses(expression) }
    }
}
