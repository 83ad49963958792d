import AccordContract
import AccordMocksFormat

/// A fixture, contract example or generated value, compiled for serving.
package struct Answer: Sendable {
    package enum Origin: String, Sendable {
        case fixture, example, generated
    }

    package var name: String
    package var origin: Origin
    /// `fixture:NAME`, `example:NAME` or `generated`, for logs.
    package var label: String
    package var matchers: [Matcher]
    package var isDefault: Bool
    package var status: Int
    package var headers: [(name: String, value: String)]
    package var delayMilliseconds: Int
    package var code: Int
    /// The whole envelope, or nil for a stream.
    package var envelope: CompiledJSON?
    /// The events of a stream, each with its delay.
    package var events: [(data: CompiledJSON, delayMilliseconds: Int)]?
    /// For a login answer: the user the tokens are issued to, when the answer states it
    /// literally (`data.user.uid`); nil when it is templated or absent.
    package var loginUID: Int?
    /// The issued tokens are holes in `envelope`, filled while rendering.
    package var hasTokenHoles = false
    /// `when: {state: …}`: conditions on the session's collections, checked after the matchers.
    package var conditions: [StateCondition] = []
    /// What the fixture does to collections before it answers.
    package var effects: [Effect] = []
    /// The fixture's `data`, for an answer built by its effects.
    package var effectData: TemplatedJSON?
    /// What the effects read, for an answer made of lists and counts alone (``RecordReads``).
    package var recordReads: RecordReads?

    /// Whether any template of the answer (its body, events, effects or state conditions) holds `expression`.
    package func uses(_ expression: TemplateExpression) -> Bool {
        envelope?.uses(expression) == true || events?.contains { $0.data.uses(expression) } == true || effectData?.uses(expression) == true
            || effects.contains { $0.uses(expression) } || conditions.contains { $0.filter.uses(expression) }
    }
}

/// Everything one endpoint can answer, in the order they are tried.
package struct EndpointAnswers: Sendable {
    /// Fixtures that are not the default, by priority (highest first), then as written.
    package var fixtures: [Answer] = []
    package var defaultFixture: Answer?
    package var examples: [Answer] = []
    package var generated: Answer
    package var generatedStream: Answer?
    /// The path parameters the contract declares as integers, which templates read as numbers.
    package var integerParameters: Set<String> = []

    /// Every named answer, for `Prefer: example=NAME`.
    package var named: [Answer] { fixtures + [defaultFixture].compactMap { $0 } + examples }

    /// Whether any answer of the endpoint holds `expression`.
    package func uses(_ expression: TemplateExpression) -> Bool {
        (named + [generated] + [generatedStream].compactMap { $0 }).contains { $0.uses(expression) }
    }
}
