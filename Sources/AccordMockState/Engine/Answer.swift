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

/// Everything one endpoint can answer, in the order they are tried. Compiled once and
/// read by every request to the endpoint, so it is shared, not copied: a copy of its
/// answers cost a request a retain and a release of each of their members.
package final class EndpointAnswers: Sendable {
    /// Fixtures that are not the default, by priority (highest first), then as written.
    package let fixtures: [Answer]
    package let defaultFixture: Answer?
    package let examples: [Answer]
    package let generated: Answer
    package let generatedStream: Answer?
    /// The path parameters the contract declares as integers, which templates read as numbers.
    package let integerParameters: Set<String>

    package init(fixtures: [Answer], defaultFixture: Answer?, examples: [Answer], generated: Answer, generatedStream: Answer?,
                 integerParameters: Set<String>) {
        self.fixtures = fixtures
        self.defaultFixture = defaultFixture
        self.examples = examples
        self.generated = generated
        self.generatedStream = generatedStream
        self.integerParameters = integerParameters
    }

    /// Every named answer, for `Prefer: example=NAME`.
    package var named: [Answer] { fixtures + [defaultFixture].compactMap { $0 } + examples }

    /// Whether any answer of the endpoint holds `expression`.
    package func uses(_ expression: TemplateExpression) -> Bool {
        (named + [generated] + [generatedStream].compactMap { $0 }).contains { $0.uses(expression) }
    }
}
