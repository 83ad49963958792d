import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordMocksFormat
import AccordSync

/// Writes fixtures as typed Swift values built with the models' memberwise
/// initializers (no JSON decoded at run time), so the compiler checks them and a
/// SwiftUI preview needs no I/O: `API.signal.fixtures.inbox.firstPage`; and the
/// catalog and route table that name them.
struct FixtureEmitter {
    /// A success fixture that fits its response, as Swift.
    struct Typed {
        var sample: FixtureSample
        /// Its property in the endpoint's fixtures struct (`firstPage`).
        var property: String
        var type: String
        var value: String
    }

    let contract: Contract
    let access: String
    let naming: Naming
    /// The fixtures of each endpoint, in the server's order.
    let samples: [String: [FixtureSample]]
    /// The typed success fixtures of each endpoint, worked out once for every file that names them.
    let typed: [String: [Typed]]
    /// A warning at every success fixture whose data does not fit its response.
    let diagnostics: [Diagnostic]
    init(contract: Contract, access: String, samples: [String: [FixtureSample]], translator: TypeTranslator) {
        self.contract = contract
        self.access = access
        self.samples = samples
        let writer = SwiftValueWriter(contract: contract, translator: translator)
        let naming = writer.naming
        self.naming = naming
        // Each endpoint's fixtures typed on their own, on every core.
        let perEndpoint = contract.endpoints.concurrentMap { endpoint -> (typed: [Typed], diagnostics: [Diagnostic]) in
            let successes = (samples[endpoint.id] ?? []).filter { $0.code == 0 }
            let responseType = naming.type(endpoint.id) + "Response"
            var typed: [Typed] = []
            var diagnostics: [Diagnostic] = []
            for (sample, name) in zip(successes, naming.caseNames(successes.map(\.name))) {
                guard let (type, value) = writer.typedValue(sample.data, schema: endpoint.response, suggested: responseType) else {
                    diagnostics.append(.warning("fixture '\(sample.name)' of '\(endpoint.id)' is not typed: its data does not fit the response",
                                                at: sample.location))
                    continue
                }
                typed.append(Typed(sample: sample, property: name.name, type: type, value: value))
            }
            return (typed, diagnostics)
        }
        var typed: [String: [Typed]] = [:]
        for (endpoint, result) in zip(contract.endpoints, perEndpoint) where !result.typed.isEmpty { typed[endpoint.id] = result.typed }
        let diagnostics = perEndpoint.flatMap(\.diagnostics)
        self.typed = typed
        self.diagnostics = diagnostics
    }

    /// The answers of `endpoint` a test can name: every refusal, and every success that is typed.
    private func selectable(_ endpoint: Endpoint) -> [FixtureSample] {
        let typedNames = Set((typed[endpoint.id] ?? []).map(\.sample.name))
        return (samples[endpoint.id] ?? []).filter { $0.code != 0 || typedNames.contains($0.name) }
    }

    /// `Fixtures/API+<Domain>Fixtures.swift`: the domain's fixtures, or nil when it has none.
    /// `responseTypes` are the endpoints' response types by id, which their fixture names carry.
    func source(domain: Domain, responseTypes: [String: String]) -> String? {
        let endpoints = contract.endpoints.filter { $0.domain == domain.name && !selectable($0).isEmpty }
        guard !endpoints.isEmpty else { return nil }
        let domainType = naming.type(domain.name)
        var writer = SwiftWriter()
        writer.block("extension \(domainType)Endpoints") { writer in
            writer.line("/// Typed values of this domain's fixtures and examples, for previews and tests.")
            writer.line("\(access)var fixtures: \(domainType)Fixtures { \(domainType)Fixtures() }")
        }
        writer.line()
        writer.documentation("The `\(domain.name)` domain's fixtures (`mocks/`) and success examples (the contract) as typed values.",
                             remark: "rendered as `accord serve` answers at 2026-11-30T08:00:00Z with seed 0")
        writer.block("\(access)struct \(domainType)Fixtures: Sendable") { writer in
            writer.line("\(access)init() {}")
            for endpoint in endpoints {
                let function = Naming.bare(naming.endpointFunction(endpoint.id, domain: endpoint.domain))
                let holder = naming.type(function) + "Fixtures"
                writer.line()
                writer.line("/// `\(endpoint.id)`")
                writer.line("\(access)var \(Naming.escaped(function)): \(holder) { \(holder)() }")
                writer.line()
                writer.block("\(access)struct \(holder): Sendable") { writer in
                    for fixture in typed[endpoint.id] ?? [] {
                        writer.line("/// `\(fixture.sample.name)` (\(origin(of: fixture.sample)))")
                        writer.block("\(access)var \(fixture.property): \(fixture.type)") { writer in
                            writer.line(fixture.value)
                        }
                    }
                    writeNames(of: endpoint, response: responseTypes[endpoint.id] ?? "AccordEmpty", into: &writer)
                }
            }
        }
        return writer.text
    }

    /// `names`: one ``FixtureName`` per answer a test can pick, so the compiler checks the
    /// name: `mock.prefer(API.signal.fixtures.inbox.names.lastPage)`.
    private func writeNames(of endpoint: Endpoint, response: String, into writer: inout SwiftWriter) {
        let answers = selectable(endpoint)
        let taken = (typed[endpoint.id] ?? []).contains { Naming.bare($0.property) == "names" }
        let property = taken ? "answerNames" : "names"
        if !(typed[endpoint.id] ?? []).isEmpty { writer.line() }
        writer.line("/// The name of each answer of `\(endpoint.id)`, for `MockTransport.prefer(_:)` and `MockAPIClient.respond(with:)`.")
        writer.line("\(access)var \(property): Names { Names() }")
        writer.line()
        writer.block("\(access)struct Names: Sendable") { writer in
            for (sample, name) in zip(answers, naming.caseNames(answers.map(\.name))) {
                let what = sample.code == 0 ? "" : ": code \(sample.code)"
                writer.line("/// `\(sample.name)` (\(origin(of: sample))\(what))")
                writer.line("\(access)var \(name.name): FixtureName<\(response)> { FixtureName(endpoint: \(endpoint.id.swiftLiteral), "
                            + "name: \(sample.name.swiftLiteral)) }")
            }
        }
    }

    /// Where an answer is written, by file and never by line, so editing a file moves no generated text.
    private func origin(of sample: FixtureSample) -> String {
        let kind = contract.domains.contains { $0.file == sample.location.file } ? "example" : "fixture"
        return "\(kind) in \(TypeTranslator.fileName(sample.location.file))"
    }

    /// `API.fixtureCatalog`: every fixture by endpoint and name, for generic tooling and tests.
    func catalog() -> String {
        var writer = SwiftWriter()
        writer.block("extension API") { writer in
            writer.line("/// Every typed fixture: its endpoint's id, its name, and its value.")
            writer.block("\(access)static var fixtureCatalog: [(endpoint: String, name: String, value: any Codable & Hashable & Sendable)]") { writer in
                guard contract.endpoints.contains(where: { !(typed[$0.id] ?? []).isEmpty }) else {
                    // No typed fixture (fixtures that only answer codes): nothing to collect, and no `var` left unmutated.
                    writer.line("[]")
                    return
                }
                // One statement per entry: a single literal of thousands of existential
                // values is more than the type checker handles in reasonable time.
                writer.line("var catalog: [(endpoint: String, name: String, value: any Codable & Hashable & Sendable)] = []")
                for endpoint in contract.endpoints {
                    for fixture in typed[endpoint.id] ?? [] {
                        writer.line("catalog.append((\(endpoint.id.swiftLiteral), \(fixture.sample.name.swiftLiteral), \(accessor(fixture, of: endpoint))))")
                    }
                }
                writer.line("return catalog")
            }
        }
        return writer.text
    }

    /// `API.mockRoutes`: every endpoint with its typed fixtures, for ``MockTransport``.
    func routes(into writer: inout SwiftWriter) {
        writer.line("/// Every endpoint with its typed fixtures, for `MockTransport`.")
        writer.block("\(access)static var mockRoutes: [MockRoute]") { writer in
            // One statement per answer, so that each fixture closure is type-checked on its own,
            // and no index arithmetic (`routes[routes.count - 1]`: an operator to resolve each time).
            let answers = contract.endpoints.map(answerLines)
            // `var` only when `route` changes: a second endpoint, or an answer of the first.
            let binding = contract.endpoints.count > 1 || !(answers.first ?? []).isEmpty ? "var" : "let"
            writer.line("var routes: [MockRoute] = []")
            writer.line("routes.reserveCapacity(\(contract.endpoints.count))")
            for (index, endpoint) in contract.endpoints.enumerated() {
                let route = "MockRoute(id: \(endpoint.id.swiftLiteral), method: .\(endpoint.method.rawValue.lowercased()), "
                    + "path: \(endpoint.path.description.swiftLiteral), requiresAuth: \(endpoint.requiresAuth), answers: [])"
                if index > 0 { writer.line("routes.append(route)") }
                writer.line((index == 0 ? "\(binding) route = " : "route = ") + route)
                answers[index].forEach { writer.line($0) }
            }
            if !contract.endpoints.isEmpty { writer.line("routes.append(route)") }
            writer.line("return routes")
        }
    }

    /// The statements adding the answers of `endpoint` to `route`, in the server's order:
    /// refusals and typed answers interleaved as written.
    private func answerLines(_ endpoint: Endpoint) -> [String] {
        let typedByName = Dictionary((typed[endpoint.id] ?? []).map { ($0.sample.name, $0) }, uniquingKeysWith: { first, _ in first })
        return (samples[endpoint.id] ?? []).compactMap { sample in
            let head = "route.answers.append(MockRoute.Answer(name: \(sample.name.swiftLiteral), role: .\(sample.role.rawValue)"
                + (sample.matchers.isEmpty ? "" : ", matchers: [" + sample.matchers.map(matcher).joined(separator: ", ") + "]")
            if sample.code != 0 { return head + ", code: \(sample.code), message: \(sample.message.map(\.swiftLiteral) ?? "nil")))" }
            return typedByName[sample.name].map { head + ") { \(accessor($0, of: endpoint)) })" }
        }
    }

    /// `API.signal.fixtures.inbox.firstPage`
    private func accessor(_ fixture: Typed, of endpoint: Endpoint) -> String {
        let function = Naming.bare(naming.endpointFunction(endpoint.id, domain: endpoint.domain))
        return "API.\(naming.property(endpoint.domain)).fixtures.\(function).\(Naming.bare(fixture.property))"
    }

    /// `.init(.query, "cursor", .equals("c_end"))`
    private func matcher(_ matcher: Matcher) -> String {
        let condition = switch matcher.condition {
        case .equals(let text): ".equals(\(text.swiftLiteral))"
        case .regex(let pattern): ".regex(\(pattern.pattern.swiftLiteral))"
        case .present(let expected): ".present(\(expected))"
        }
        return ".init(.\(matcher.source.rawValue), \(matcher.key.swiftLiteral), \(condition))"
    }
}
