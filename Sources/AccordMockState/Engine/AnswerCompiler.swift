import AccordContract
import AccordJSON
import AccordMocksFormat

/// Compiles one endpoint's fixtures, examples and generated fallback into ``Answer``s.
package struct AnswerCompiler {
    package let contract: Contract
    package let endpoint: Endpoint
    /// Whether the endpoint hands out tokens (login, refresh): its answers get `{{issued.…}}` holes.
    private let issuesTokens: Bool

    package init(contract: Contract, endpoint: Endpoint) {
        self.contract = contract
        self.endpoint = endpoint
        issuesTokens = Self.issuesTokens(endpoint, in: contract)
    }

    package func answers(fixtures: [Fixture]) -> EndpointAnswers {
        let generator = ResponseGenerator(types: contract.types)
        let generatedData = generator.value(for: endpoint.response)
        let generated = literal(name: "generated", origin: .generated, code: 0, data: generatedData)
        let integerParameters = Set(endpoint.parameters.filter { parameter in
            [.primitive(.int), .primitive(.int64)].contains(contract.resolvedKind(of: parameter.schema))
        }.map(\.name))
        let generatedStream = endpoint.stream.map { stream in
            var streamed = generated
            streamed.envelope = nil
            streamed.events = Array(repeating: (CompiledJSON(literal: generator.value(for: stream.event)), 50), count: 3)
            return streamed
        }
        let examples = endpoint.examples.map { example in
            literal(name: example.name, origin: .example, code: example.code,
                    data: example.code == 0 ? (example.response?.value ?? generatedData) : example.response?.value)
        }
        var fixtureAnswers: [Answer] = []
        var defaultFixture: Answer?
        for fixture in fixtures.inTryOrder {
            guard var compiled = templated(fixture, fallback: fixture.code == 0 ? generatedData : nil) else { continue }
            compiled.matchers = fixture.matchers
            compiled.conditions = fixture.conditions
            compiled.effects = fixture.effects
            if !fixture.effects.isEmpty, fixture.code == 0 {
                let data = fixture.data ?? (fixture.effects.contains(where: \.answersRecord) ? nil : generatedData)
                compiled.effectData = data.flatMap { try? TemplatedJSON($0) }
                compiled.recordReads = RecordReads(effects: fixture.effects, data: compiled.effectData)
            }
            compiled.isDefault = fixture.isDefault
            compiled.headers = fixture.headers
            compiled.delayMilliseconds = fixture.delayMilliseconds
            if let status = fixture.status { compiled.status = status }
            if let events = fixture.events {
                compiled.envelope = nil
                compiled.events = events.compactMap { event in (try? CompiledJSON(event.data)).map { ($0, event.delayMilliseconds) } }
            }
            if fixture.isDefault { defaultFixture = compiled } else { fixtureAnswers.append(compiled) }
        }
        return EndpointAnswers(fixtures: fixtureAnswers, defaultFixture: defaultFixture, examples: examples, generated: generated,
                               generatedStream: generatedStream, integerParameters: integerParameters)
    }

    /// A contract example or generated value: served as written, never templated
    /// (except the issued tokens of a login or refresh answer).
    private func literal(name: String, origin: Answer.Origin, code: Int, data: JSONValue?) -> Answer {
        guard issuesTokens, code == 0, let data else {
            return answer(name: name, origin: origin, code: code, envelope: CompiledJSON(literal: envelope(code: code, message: nil, data: data)))
        }
        // An example that itself holds "{{" cannot take holes; the engine then patches its tokens.
        guard let compiled = try? CompiledJSON(envelope(code: code, message: nil, data: Self.tokenHoles(in: data))) else {
            return answer(name: name, origin: origin, code: code, envelope: CompiledJSON(literal: envelope(code: code, message: nil, data: data)))
        }
        var compiledAnswer = answer(name: name, origin: origin, code: code, envelope: compiled)
        compiledAnswer.hasTokenHoles = true
        compiledAnswer.loginUID = Self.literalUID(in: data)
        return compiledAnswer
    }

    /// Whether `endpoint` is a login or the refresh, whose answers carry the issued tokens.
    package static func issuesTokens(_ endpoint: Endpoint, in contract: Contract) -> Bool {
        contract.service.auth.loginEndpoints.contains(endpoint.id) || endpoint.id == contract.service.auth.refreshEndpoint
    }

    /// `data` with the token members replaced by `{{issued.…}}` holes.
    package static func tokenHoles(in data: JSONValue) -> JSONValue {
        guard case .object(var members) = data else { return data }
        for index in members.indices {
            if let field = TemplateExpression.IssuedField(rawValue: members[index].key) {
                members[index].value = .string("{{issued.\(field.rawValue)}}")
            }
        }
        return .object(members)
    }

    /// `user.uid` when written as a number.
    private static func literalUID(in data: JSONValue) -> Int? {
        if case .int(let uid)? = data.value(at: "/user/uid") { return uid }
        return nil
    }

    /// A fixture's envelope with its templates; nil if they do not compile (the loader has reported it).
    private func templated(_ fixture: Fixture, fallback: JSONValue?) -> Answer? {
        var data = fixture.data ?? fallback
        if issuesTokens, fixture.code == 0, let plain = data { data = Self.tokenHoles(in: plain) }
        guard let compiled = try? CompiledJSON(envelope(code: fixture.code, message: fixture.message, data: data)) else {
            return nil
        }
        var compiledAnswer = answer(name: fixture.name, origin: .fixture, code: fixture.code, envelope: compiled)
        if issuesTokens && fixture.code == 0 {
            compiledAnswer.hasTokenHoles = true
            compiledAnswer.loginUID = fixture.data.flatMap(Self.literalUID)
        }
        return compiledAnswer
    }

    /// The answer's body: the envelope, or a plain API's data or error body.
    private func envelope(code: Int, message: String?, data: JSONValue?) -> JSONValue {
        contract.service.answerBody(code: code, message: message, data: data)
    }

    private func answer(name: String, origin: Answer.Origin, code: Int, envelope: CompiledJSON) -> Answer {
        Answer(name: name, origin: origin, label: origin == .generated ? "generated" : "\(origin.rawValue):\(name)",
               matchers: [], isDefault: false,
               status: contract.service.code(code)?.httpStatus ?? (code != 0 && contract.service.envelope == nil ? code : 200),
               headers: [], delayMilliseconds: 0, code: code,
               envelope: envelope, events: nil)
    }
}
