import AccordContract
import AccordJSON
import AccordYAML

extension Importer {
    /// The contracts and fixtures: drafted once without examples, loaded as a contract to hold every example to its
    /// schema, then written with the examples that fit.
    mutating func render() -> [OpenAPIImport.File] {
        // A document without operations (webhooks only) imports nothing, and says so.
        guard !endpoints.isEmpty else { return [] }
        placeDeclarations()
        let draft = contractFiles()
        let sources = draft.map { ContractLoader.Source(path: $0.path, bytes: Array($0.text.utf8)) }
        let outcome = ContractLoader().load(sources, directory: "contracts")
        if let contract = outcome.contract, !outcome.diagnostics.containsErrors {
            checkExamples(contract)
        } else {
            for diagnostic in outcome.diagnostics where diagnostic.severity == .error {
                log.add(.error("[import-incomplete] the imported contract does not load: \(diagnostic.location): \(diagnostic.message)",
                               at: diagnostic.location))
            }
            endpoints.indices.forEach { endpoints[$0].examples = []; endpoints[$0].fixtures = [] }
        }
        return contractFiles() + fixtureFiles()
    }

    /// The domains in the order their first endpoint was met.
    private var domainOrder: [String] {
        var seen: Set<String> = []
        return endpoints.map(\.domain).filter { seen.insert($0).inserted }
    }

    private func fileName(_ domain: String) -> String { domain == "service" ? "service-domain" : domain }

    private func contractFiles() -> [OpenAPIImport.File] {
        var files = [OpenAPIImport.File(path: "contracts/service.yaml", text: serviceHeader + yaml(serviceDocument))]
        for domain in domainOrder {
            var members: [JSONValue.Member] = [.init("domain", .string(domain))]
            if let description = tagDescriptions[domain] { members.append(.init("description", .string(description))) }
            let types = declarations.filter { $0.domain == domain }.sorted { $0.name < $1.name }
            if !types.isEmpty { members.append(.init("types", .object(types.map { .init($0.name, $0.body) }))) }
            members.append(.init("endpoints", .object(endpoints.filter { $0.domain == domain }.map { .init($0.id, endpointBody($0)) })))
            files.append(OpenAPIImport.File(path: "contracts/\(fileName(domain)).yaml", text: yaml(.object(members))))
        }
        return files
    }

    private func fixtureFiles() -> [OpenAPIImport.File] {
        domainOrder.compactMap { domain in
            let entries = endpoints.filter { $0.domain == domain }.map(withCodeFixtures).filter { !$0.fixtures.isEmpty }.map { endpoint in
                JSONValue.Member(endpoint.id, .array(endpoint.fixtures.map { fixture in
                    var members: [JSONValue.Member] = [.init("name", .string(fixture.name))]
                    if fixture.isDefault {
                        members.append(.init("default", .bool(true)))
                    } else {
                        members.append(.init("when", .object([.init("headers", .object([.init("Prefer", .string("example=" + fixture.name))]))])))
                    }
                    if let status = fixture.status { members.append(.init(service.envelope != nil || fixture.response == nil ? "code" : "status", .int(status))) }
                    if let data = fixture.response { members.append(.init("data", data)) }
                    return .object(members)
                }))
            }
            guard !entries.isEmpty else { return nil }
            let header = "# Answers from the document's examples that are not whole calls: each is answered when a request asks for it by name "
                + "(Prefer: example=NAME), a default one when nothing else is.\n"
            return OpenAPIImport.File(path: "mocks/\(fileName(domain)).yaml", text: header + yaml(.object(entries)))
        }
    }

    /// The endpoint with a fixture for each code it declares that no example answers, named as the code table names it:
    /// the mock answers every documented error when a request asks for it (`Prefer: example=not-found`).
    private func withCodeFixtures(_ endpoint: EndpointDraft) -> EndpointDraft {
        guard case .array(let codes)? = endpoint.members.first(where: { $0.key == "codes" })?.value else { return endpoint }
        var endpoint = endpoint
        var names = Set(endpoint.fixtures.map(\.name) + endpoint.examples.map(\.name))
        let answered = Set(endpoint.fixtures.compactMap(\.status) + endpoint.examples.map(\.code))
        for case .int(let code) in codes where !answered.contains(code) {
            let name = Names.unique(codeName(code), in: &names, separator: "-")
            endpoint.fixtures.append(ExampleDraft(name: name, status: code, spot: endpoint.spot))
        }
        return endpoint
    }

    /// An endpoint's keys with its examples: a request example joined to the answer of the same name (or to the only answer).
    private func endpointBody(_ endpoint: EndpointDraft) -> JSONValue {
        var members = endpoint.members
        if endpoint.examplesAreRecorded {
            if !endpoint.examples.isEmpty { members.append(.init("examples", .object(endpoint.examples.map(Self.recorded)))) }
            return .object(members)
        }
        let bodies = endpoint.examples.filter { $0.body != nil }
        let answers = endpoint.examples.filter { $0.response != nil || $0.code != 0 }
        var examples: [JSONValue.Member] = []
        for answer in answers {
            var example: [JSONValue.Member] = []
            let body = EndpointDraft.request(for: answer, among: bodies, answers: answers.count)
            if let value = body?.body { example.append(.init("body", value)) }
            if answer.code != 0 { example.append(.init("code", .int(answer.code))) }
            if let value = answer.response { example.append(.init("response", value)) }
            examples.append(.init(answer.name, .object(example)))
        }
        for body in bodies where !examples.contains(where: { $0.value["body"] == body.body }) && !examples.contains(where: { $0.key == body.name }) {
            examples.append(.init(body.name, .object([.init("body", body.body ?? .null)])))
        }
        if !examples.isEmpty { members.append(.init("examples", .object(examples))) }
        return .object(members)
    }

    /// A recorded example as the contract writes it.
    private static func recorded(_ example: ExampleDraft) -> JSONValue.Member {
        var members: [JSONValue.Member] = []
        if let value = example.parameters { members.append(.init("params", value)) }
        if let value = example.query { members.append(.init("query", value)) }
        if let value = example.body { members.append(.init("body", value)) }
        if example.code != 0 { members.append(.init("code", .int(example.code))) }
        if let value = example.response { members.append(.init("response", value)) }
        return .init(example.name, .object(members))
    }

    private func yaml(_ value: JSONValue) -> String {
        do {
            return try YAMLEmitter.document(value, integerKeys: true)
        } catch {
            return "# libyaml could not write this file: \(error)\n"
        }
    }
}

extension Importer {
    /// Each named type goes to the file of the one domain whose endpoints reach it, else to the service file:
    /// decided by what refers to what, not by the order the document was read in.
    mutating func placeDeclarations() {
        var reachedBy: [String: Set<String>] = [:]
        for endpoint in endpoints {
            var queue = Self.typeNames(in: .object(endpoint.members))
            var seen: Set<String> = []
            while let name = queue.popLast() {
                guard seen.insert(name).inserted, let index = declarationIndex[name] else { continue }
                reachedBy[name, default: []].insert(endpoint.domain)
                queue += Self.typeNames(in: declarations[index].body)
            }
        }
        for index in declarations.indices {
            let domains = reachedBy[declarations[index].name] ?? []
            declarations[index].domain = domains.count == 1 ? domains.first : nil
        }
    }

    /// The type names a contract value mentions (`[Pet]`, `{string: Owner}`, `PetStatus`).
    private static func typeNames(in value: JSONValue) -> [String] {
        switch value {
        case .string(let text):
            var names: [String] = []
            var current = ""
            for character in text + " " {
                if character.isLetter || character.isNumber || character == "_" {
                    current.append(character)
                } else {
                    if let first = current.first, first.isUppercase { names.append(current) }
                    current = ""
                }
            }
            return names
        case .array(let items): return items.flatMap(typeNames)
        case .object(let members): return members.flatMap { typeNames(in: $0.value) }
        default: return []
        }
    }
}
