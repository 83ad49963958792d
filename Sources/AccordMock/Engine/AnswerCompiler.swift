import AccordContract

/// Compiles an endpoint's fixtures, examples and generated fallback into ``Answer``s.
struct AnswerCompiler {
    let contract: Contract

    func answers(for endpoint: Endpoint, fixtures: [Fixture]) -> EndpointAnswers {
        let generator = ResponseGenerator(types: contract.types)
        let generatedData = generator.value(for: endpoint.response)
        var answers = EndpointAnswers(generated: literal(name: "generated", origin: .generated, code: 0, data: generatedData))
        if let stream = endpoint.stream {
            var streamed = answers.generated
            streamed.envelope = nil
            streamed.events = Array(repeating: (CompiledJSON(literal: generator.value(for: stream.event)), 50), count: 3)
            answers.generatedStream = streamed
        }
        for example in endpoint.examples {
            answers.examples.append(literal(name: example.name, origin: .example, code: example.code,
                                            data: example.code == 0 ? (example.response?.value ?? generatedData) : example.response?.value))
        }
        for fixture in fixtures {
            guard var compiled = templated(fixture, fallback: fixture.code == 0 ? generatedData : nil) else { continue }
            compiled.matchers = fixture.matchers
            compiled.priority = fixture.priority
            compiled.isDefault = fixture.isDefault
            compiled.headers = fixture.headers
            compiled.delayMilliseconds = fixture.delayMilliseconds
            if let status = fixture.status { compiled.status = status }
            if let events = fixture.events {
                compiled.envelope = nil
                compiled.events = events.compactMap { event in (try? CompiledJSON(event.data)).map { ($0, event.delayMilliseconds) } }
            }
            if fixture.isDefault { answers.defaultFixture = compiled } else { answers.fixtures.append(compiled) }
        }
        // Highest priority first; the sort is stable, so ties keep the written order.
        answers.fixtures = answers.fixtures.enumerated()
            .sorted { ($1.element.priority, $0.offset) < ($0.element.priority, $1.offset) }
            .map(\.element)
        return answers
    }

    /// A contract example or generated value: served as written, never templated.
    private func literal(name: String, origin: Answer.Origin, code: Int, data: JSONValue?) -> Answer {
        answer(name: name, origin: origin, code: code, envelope: CompiledJSON(literal: envelope(code: code, message: nil, data: data)))
    }

    /// A fixture's envelope with its templates; nil if they do not compile (the loader has reported it).
    private func templated(_ fixture: Fixture, fallback: JSONValue?) -> Answer? {
        guard let compiled = try? CompiledJSON(envelope(code: fixture.code, message: fixture.message, data: fixture.data ?? fallback)) else {
            return nil
        }
        return answer(name: fixture.name, origin: .fixture, code: fixture.code, envelope: compiled)
    }

    private func envelope(code: Int, message: String?, data: JSONValue?) -> JSONValue {
        let names = contract.service.envelope
        var members: [JSONValue.Member] = [
            .init(names.code, .int(code)),
            .init(names.message, .string(message ?? contract.service.code(code)?.message ?? "ok")),
        ]
        if let data { members.append(.init(names.data, data)) }
        return .object(members)
    }

    private func answer(name: String, origin: Answer.Origin, code: Int, envelope: CompiledJSON) -> Answer {
        Answer(name: name, origin: origin, label: origin == .generated ? "generated" : "\(origin.rawValue):\(name)",
               matchers: [], priority: 0, isDefault: false,
               status: contract.service.code(code)?.httpStatus ?? 200, headers: [], delayMilliseconds: 0, code: code,
               envelope: envelope, events: nil)
    }
}
