import AccordMocksFormat

/// Writes the fixtures (``FixtureDeclarations``): each domain's typed values and answer
/// names, the catalog, and the in-process mock's route table.
struct FixtureRenderer {
    /// `public ` or the empty string (internal).
    let access: String
    let declarations: FixtureDeclarations

    /// `Fixtures/API+<Domain>Fixtures.swift`: the domain's fixtures.
    func source(_ domain: FixtureDeclarations.Domain) -> String {
        var writer = SwiftWriter()
        writer.block("extension \(domain.typeName)Endpoints") { writer in
            writer.line("/// Typed values of this domain's fixtures and examples, for previews and tests.")
            writer.line("\(access)var fixtures: \(domain.typeName)Fixtures { \(domain.typeName)Fixtures() }")
        }
        writer.line()
        writer.documentation("The `\(domain.name)` domain's fixtures (`mocks/`) and success examples (the contract) as typed values.",
                             remark: "rendered as `accord serve` answers at 2026-11-30T08:00:00Z with seed 0")
        writer.block("\(access)struct \(domain.typeName)Fixtures: Sendable") { writer in
            writer.line("\(access)init() {}")
            for endpoint in domain.endpoints {
                writer.line()
                writer.line("/// `\(endpoint.id)`")
                writer.line("\(access)var \(endpoint.property): \(endpoint.holder) { \(endpoint.holder)() }")
                writer.line()
                writer.block("\(access)struct \(endpoint.holder): Sendable") { writer in
                    for fixture in endpoint.values {
                        writer.line("/// `\(fixture.sample.name)` (\(fixture.origin))")
                        writer.block("\(access)var \(fixture.property): \(fixture.type)") { writer in
                            writer.line(fixture.value)
                        }
                    }
                    writeNames(of: endpoint, into: &writer)
                }
            }
        }
        return writer.text
    }

    /// `names`: one ``FixtureName`` per answer a test can pick, so the compiler checks the
    /// name: `mock.prefer(API.signal.fixtures.inbox.names.lastPage)`.
    private func writeNames(of endpoint: FixtureDeclarations.Endpoint, into writer: inout SwiftWriter) {
        if !endpoint.values.isEmpty { writer.line() }
        writer.line("/// The name of each answer of `\(endpoint.id)`, for `MockTransport.prefer(_:)` and `MockAPIClient.respond(with:)`.")
        writer.line("\(access)var \(endpoint.namesProperty): Names { Names() }")
        writer.line()
        writer.block("\(access)struct Names: Sendable") { writer in
            for name in endpoint.names {
                let what = name.sample.code == 0 ? "" : ": code \(name.sample.code)"
                writer.line("/// `\(name.sample.name)` (\(name.origin)\(what))")
                writer.line("\(access)var \(name.property): FixtureName<\(endpoint.responseType)> { FixtureName(endpoint: \(endpoint.id.swiftLiteral), "
                            + "name: \(name.sample.name.swiftLiteral)) }")
            }
        }
    }

    /// `API.fixtureCatalog`: every fixture by endpoint and name, for generic tooling and tests,
    /// read from the routes, whose answers hold each typed fixture once, in the same order
    /// (a statement a fixture here cost the type checker almost as much as its answer).
    func catalog() -> String {
        var writer = SwiftWriter()
        writer.block("extension API") { writer in
            writer.line("/// Every typed fixture: its endpoint's id, its name, and its value.")
            writer.line("\(access)static var fixtureCatalog: [(endpoint: String, name: String, value: any Codable & Hashable & Sendable)] { mockRoutes.fixtureCatalog }")
        }
        return writer.text
    }

    /// `API.mockRoutes`: every endpoint with its typed fixtures, for ``MockTransport``.
    func routes(into writer: inout SwiftWriter) {
        let routes = declarations.routes
        writer.line("/// Every endpoint with its typed fixtures, for `MockTransport`.")
        writer.block("\(access)static var mockRoutes: [MockRoute]") { writer in
            // One statement per answer, so that each fixture closure is type-checked on its own,
            // and no index arithmetic (`routes[routes.count - 1]`: an operator to resolve each time).
            // `var` only when `route` changes: a second endpoint, or an answer of the first.
            let binding = routes.count > 1 || !(routes.first?.answers ?? []).isEmpty ? "var" : "let"
            writer.line("var routes: [MockRoute] = []")
            writer.line("routes.reserveCapacity(\(routes.count))")
            for (index, route) in routes.enumerated() {
                let value = "MockRoute(id: \(route.id.swiftLiteral), method: .\(route.method), "
                    + "path: \(route.path.swiftLiteral), requiresAuth: \(route.requiresAuth), "
                    + (route.responseType.map { "responseType: \($0).self, " } ?? "") + "answers: [])"
                if index > 0 { writer.line("routes.append(route)") }
                writer.line((index == 0 ? "\(binding) route = " : "route = ") + value)
                route.answers.forEach { writer.line(line(adding: $0)) }
            }
            if !routes.isEmpty { writer.line("routes.append(route)") }
            writer.line("return routes")
        }
    }

    /// The statement adding `answer` to `route`.
    private func line(adding answer: FixtureDeclarations.Answer) -> String {
        let matchers = answer.matchers.isEmpty ? "" : ", matchers: [" + answer.matchers.map(matcher).joined(separator: ", ") + "]"
        return switch answer.outcome {
        case .refusal(let code, let message):
            "route.answers.append(MockRoute.Answer(name: \(answer.name.swiftLiteral), role: .\(answer.role.rawValue)\(matchers), "
                + "code: \(code), message: \(message.map(\.swiftLiteral) ?? "nil")))"
        case .value(let accessor):
            "route.answers.append(MockRoute.Answer.fixture(\(answer.name.swiftLiteral), role: .\(answer.role.rawValue)\(matchers)) { \(accessor) })"
        }
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
