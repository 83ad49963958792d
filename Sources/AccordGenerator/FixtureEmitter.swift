import AccordContract
import AccordDiagnostics
import AccordJSON

/// Writes fixtures as typed Swift values built with the models' memberwise
/// initializers (no JSON decoded at run time), so the compiler checks them and a
/// SwiftUI preview needs no I/O: `API.signal.fixtures.inbox.default`.
///
/// The Swift type of each value follows the names ``TypeTranslator`` gives, nested
/// inline types qualified by the struct that declares them.
struct FixtureEmitter {
    let contract: Contract
    let access: String
    /// Built once: it indexes every endpoint's stream toggle.
    private let translator: TypeTranslator

    init(contract: Contract, access: String) {
        self.contract = contract
        self.access = access
        translator = TypeTranslator(contract: contract)
    }

    /// A fixture's answer: its name, its rendered `data`, and where it was written.
    typealias Sample = SwiftGenerator.Sample

    /// `Fixtures/API+<Domain>Fixtures.swift`: the domain's fixtures, or nil when it has none.
    func source(domain: Domain, samples: [String: [Sample]], diagnostics: inout [Diagnostic]) -> String? {
        let typedSamples = samples.mapValues { $0.filter { $0.code == 0 } }
        let endpoints = contract.endpoints.filter { $0.domain == domain.name && !(typedSamples[$0.id] ?? []).isEmpty }
        guard !endpoints.isEmpty else { return nil }
        let domainType = Naming.type(domain.name)
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
                let function = Naming.bare(Naming.endpointFunction(endpoint.id, domain: endpoint.domain))
                let holder = Naming.type(function) + "Fixtures"
                writer.line()
                writer.line("/// `\(endpoint.id)`")
                writer.line("\(access)var \(Naming.escaped(function)): \(holder) { \(holder)() }")
                writer.line()
                writer.block("\(access)struct \(holder): Sendable") { writer in
                    let list = typedSamples[endpoint.id] ?? []
                    let names = Naming.caseNames(list.map(\.name))
                    let responseType = Naming.type(endpoint.id) + "Response"
                    for (sample, name) in zip(list, names) {
                        guard let (type, value) = typedValue(sample.data, schema: endpoint.response, suggested: responseType) else {
                            diagnostics.append(.warning("fixture '\(sample.name)' of '\(endpoint.id)' is not typed: its data does not fit the response",
                                                        at: sample.location))
                            continue
                        }
                        writer.line("/// `\(sample.name)`, \(TypeTranslator.fileName(sample.location.file)):\(sample.location.line)")
                        writer.block("\(access)var \(name.name): \(type)") { writer in
                            writer.line(value)
                        }
                    }
                }
            }
        }
        return writer.text
    }

    /// `API.fixtureCatalog`: every fixture by endpoint and name, for generic tooling and tests.
    func catalog(samples: [String: [Sample]]) -> String {
        var writer = SwiftWriter()
        writer.block("extension API") { writer in
            writer.line("/// Every typed fixture: its endpoint's id, its name, and its value.")
            writer.block("\(access)static var fixtureCatalog: [(endpoint: String, name: String, value: any Codable & Hashable & Sendable)]") { writer in
                // One statement per entry: a single literal of thousands of existential
                // values is more than the type checker handles in reasonable time.
                writer.line("var catalog: [(endpoint: String, name: String, value: any Codable & Hashable & Sendable)] = []")
                for endpoint in contract.endpoints {
                    let list = (samples[endpoint.id] ?? []).filter { $0.code == 0 }
                    let domain = Naming.property(endpoint.domain)
                    let function = Naming.bare(Naming.endpointFunction(endpoint.id, domain: endpoint.domain))
                    let responseType = Naming.type(endpoint.id) + "Response"
                    for (sample, name) in zip(list, Naming.caseNames(list.map(\.name)))
                    where typedValue(sample.data, schema: endpoint.response, suggested: responseType) != nil {
                        writer.line("catalog.append((\(endpoint.id.swiftLiteral), \(sample.name.swiftLiteral), API.\(domain).fixtures.\(function).\(Naming.bare(name.name))))")
                    }
                }
                writer.line("return catalog")
            }
        }
        return writer.text
    }

    /// `API.mockRoutes`: every endpoint with its typed fixtures, for ``MockTransport``.
    func routes(samples: [String: [Sample]], into writer: inout SwiftWriter) {
        writer.line("/// Every endpoint with its typed fixtures, for `MockTransport`.")
        writer.block("\(access)static var mockRoutes: [MockRoute]") { writer in
            // One statement per route, so that each fixture closure is type-checked on its own.
            writer.line("var routes: [MockRoute] = []")
            for endpoint in contract.endpoints {
                let all = samples[endpoint.id] ?? []
                let list = all.filter { $0.code == 0 }
                let domain = Naming.property(endpoint.domain)
                let function = Naming.bare(Naming.endpointFunction(endpoint.id, domain: endpoint.domain))
                let responseType = Naming.type(endpoint.id) + "Response"
                let typed = zip(list, Naming.caseNames(list.map(\.name))).filter {
                    typedValue($0.0.data, schema: endpoint.response, suggested: responseType) != nil
                }
                let route = "MockRoute(id: \(endpoint.id.swiftLiteral), method: .\(endpoint.method.rawValue.lowercased()), "
                    + "path: \(endpoint.path.description.swiftLiteral), requiresAuth: \(endpoint.requiresAuth), answers: [])"
                writer.line("routes.append(\(route))")
                // In the server's order: refusals and typed answers interleaved as written.
                let names = Dictionary(typed.map { ($0.0.name, $0.1.name) }, uniquingKeysWith: { first, _ in first })
                for sample in all {
                    let head = "routes[routes.count - 1].answers.append(MockRoute.Answer(name: \(sample.name.swiftLiteral), role: .\(sample.role.rawValue)"
                        + (sample.matchers.isEmpty ? "" : ", matchers: [" + sample.matchers.map(matcher).joined(separator: ", ") + "]")
                    if sample.code != 0 {
                        writer.line(head + ", code: \(sample.code), message: \(sample.message.map(\.swiftLiteral) ?? "nil")))")
                    } else if let name = names[sample.name] {
                        writer.line(head + ") { API.\(domain).fixtures.\(function).\(Naming.bare(name)) })")
                    }
                }
            }
            writer.line("return routes")
        }
    }

    /// `.init(.query, "cursor", .equals("c_end"))`
    private func matcher(_ matcher: Sample.Matcher) -> String {
        let condition = switch matcher.condition {
        case .equals(let text): ".equals(\(text.swiftLiteral))"
        case .regex(let pattern): ".regex(\(pattern.swiftLiteral))"
        case .present(let expected): ".present(\(expected))"
        }
        return ".init(.\(matcher.source.rawValue), \(matcher.key.swiftLiteral), \(condition))"
    }

    /// The Swift type and value expression of `value` at a place of `schema`'s type, or
    /// nil when the value does not fit it.
    func typedValue(_ value: JSONValue, schema: Schema, suggested: String) -> (type: String, value: String)? {
        var nested: [Declaration] = []
        let type = translator.type(for: schema, suggestedName: suggested, file: "", nested: &nested)
        guard let expression = expression(value, schema: schema, suggested: suggested, qualifier: nil) else { return nil }
        return (type, expression)
    }

    /// `suggested` is the name an inline type here gets; `qualifier` the struct it is
    /// nested in, if any.
    private func expression(_ value: JSONValue, schema: Schema, suggested: String, qualifier: String?) -> String? {
        let qualified = qualifier.map { "\($0).\(suggested)" } ?? suggested
        switch schema.kind {
        case .reference(let name):
            guard let declared = contract.types[name] else { return nil }
            switch declared.schema.kind {
            case .object(let fields): return fields.isEmpty ? "AccordEmpty()" : structure(value, fields: fields, name: name, qualified: name)
            case .enumeration(let cases): return enumeration(value, cases: cases, type: name)
            default: return expression(value, schema: declared.schema, suggested: name + "Value", qualifier: nil)
            }
        case .primitive(let primitive):
            return self.primitive(value, primitive)
        case .array(let item):
            guard case .array(let items) = value else { return nil }
            var elements: [String] = []
            for element in items {
                guard let text = expression(element, schema: item, suggested: TypeTranslator.singular(suggested), qualifier: qualifier) else { return nil }
                elements.append(text)
            }
            return "[" + elements.joined(separator: ", ") + "]"
        case .map(let valueSchema):
            guard case .object(let members) = value else { return nil }
            if members.isEmpty { return "[:]" }
            var pairs: [String] = []
            for member in members {
                guard let element = expression(member.value, schema: valueSchema, suggested: suggested + "Value", qualifier: qualifier) else { return nil }
                pairs.append("\(member.key.swiftLiteral): \(element)")
            }
            return "[" + pairs.joined(separator: ", ") + "]"
        case .object(let fields):
            return fields.isEmpty ? "AccordEmpty()" : structure(value, fields: fields, name: suggested, qualified: qualified)
        case .enumeration(let cases):
            return enumeration(value, cases: cases, type: qualified)
        }
    }

    /// `Name(member: value, …)` in the initializer's order; absent or null optionals left
    /// to their default.
    private func structure(_ value: JSONValue, fields: [Field], name: String, qualified: String) -> String? {
        guard case .object = value else { return nil }
        var arguments: [String] = []
        for field in fields {
            let member = value[field.name]
            if member == nil || member == .null {
                guard field.isOptional || field.isNullable else { return nil }
                continue
            }
            // The nested type's name, as TypeTranslator.structure gives it.
            var nestedName = Naming.type(field.name)
            if Naming.keywords.contains(nestedName) || nestedName == name { nestedName = name + nestedName }
            guard let member, let argument = expression(member, schema: field.schema, suggested: nestedName, qualifier: qualified) else { return nil }
            arguments.append("\(Naming.property(field.name)): \(argument)")
        }
        return "\(qualified)(\(arguments.joined(separator: ", ")))"
    }

    private func enumeration(_ value: JSONValue, cases: EnumCases, type: String) -> String? {
        let names = Naming.caseNames(cases.cases.map(\.name))
        for (item, name) in zip(cases.cases, names) {
            switch (item.value, value) {
            case (.string(let text), .string(let wire)) where text == wire: return "\(type).\(Naming.bare(name.name))"
            case (.int(let number), .int(let wire)) where number == wire: return "\(type).\(Naming.bare(name.name))"
            default: continue
            }
        }
        switch value {
        case .string(let wire): return "\(type).unknown(\(wire.swiftLiteral))"
        case .int(let wire) where cases.isIntegral: return "\(type).unknown(\(wire))"
        default: return nil
        }
    }

    private func primitive(_ value: JSONValue, _ primitive: Primitive) -> String? {
        switch (primitive, value) {
        case (.string, .string(let text)): text.swiftLiteral
        case (.int, .int(let number)): String(number)
        case (.double, .int(let number)): String(number)
        case (.double, .double(let number)) where number.isFinite: "\(number)"
        case (.bool, .bool(let flag)): flag ? "true" : "false"
        case (.decimal, .string(let text)): "AccordDecimal(fixture: \(text.swiftLiteral))"
        case (.decimal, .int), (.decimal, .double): "AccordDecimal(fixture: \(JSONWriter.string(value).swiftLiteral))"
        case (.dateTime, .string(let text)): "AccordDateTime(fixture: \(text.swiftLiteral))"
        case (.date, .string(let text)): "AccordDate(fixture: \(text.swiftLiteral))"
        case (.url, .string(let text)): "URL(fixture: \(text.swiftLiteral))"
        case (.any, _): anyJSON(value)
        default: nil
        }
    }

    private func anyJSON(_ value: JSONValue) -> String {
        switch value {
        case .null: "AccordJSON.null"
        case .bool(let flag): "AccordJSON.bool(\(flag))"
        case .int(let number): "AccordJSON.integer(\(number))"
        case .double(let number): "AccordJSON.number(\(number.isFinite ? "\(number)" : "0"))"
        case .string(let text): "AccordJSON.string(\(text.swiftLiteral))"
        case .array(let items): "AccordJSON.array([" + items.map(anyJSON).joined(separator: ", ") + "])"
        case .object(let members):
            members.isEmpty ? "AccordJSON.object([:])"
                : "AccordJSON.object([" + members.map { "\($0.key.swiftLiteral): \(anyJSON($0.value))" }.joined(separator: ", ") + "])"
        }
    }
}
