import AccordContract
import AccordImport
import AccordOpenAPI
import AccordTesting
import AccordValidation
import Foundation
import Testing

/// `accord openapi` of a project, imported back, is the same project: the same endpoints, types and codes,
/// compared structure by structure (a generic's instance `Page<Match>` comes back as the type `PageMatch`).
@Suite struct ExportRoundTripTests {
    @Test func theRepositorysContractsComeBack() throws {
        try expectRoundTrip(Repository.contract)
    }

    @Test func thePlainProjectComesBack() throws {
        let contract = try #require(ContractLint.run(directory: Repository.plainContracts).contract)
        try expectRoundTrip(contract)
    }

    /// The service file's `swift: {namespace: …}` travels in `x-accord-service`.
    @Test func theNamespaceComesBack() throws {
        var contract = try #require(ContractLint.run(directory: Repository.plainContracts).contract)
        contract.service.swift.namespace = "Notes"
        try expectRoundTrip(contract)
        let text = try OpenAPIDocument(contract: contract).rendered(as: .yaml)
        #expect(text.contains("namespace: Notes"))
    }

    private func expectRoundTrip(_ original: Contract) throws {
        let text = try OpenAPIDocument(contract: original).rendered(as: .yaml)
        let result = OpenAPIImport().run(document: Array(text.utf8), path: "openapi.yaml")
        #expect(!result.diagnostics.containsErrors, "\(result.diagnostics.filter { $0.severity == .error })")
        let sources = result.files.filter { $0.path.hasPrefix("contracts/") }.map { ContractLoader.Source(path: $0.path, bytes: Array($0.text.utf8)) }
        let outcome = ContractLint.check(ContractLoader().load(sources, directory: "contracts"))
        #expect(outcome.diagnostics.map(\.description) == [])
        let imported = try #require(outcome.contract)
        // The import names each inline object (a body, an answer) as a type of its own: such a type is compared by
        // what it holds, every other by its name.
        let shared = Set(original.types.keys.map(Structure.normalized))
        let before = Structure(original, named: shared)
        let after = Structure(imported, named: shared)
        #expect(after.endpoints.keys.sorted() == before.endpoints.keys.sorted())
        for (id, endpoint) in before.endpoints.sorted(by: { $0.key < $1.key }) {
            #expect(after.endpoints[id] == endpoint, "\(id)")
        }
        #expect(Set(after.types.keys).isSuperset(of: before.types.keys))
        for (name, type) in before.types.sorted(by: { $0.key < $1.key }) {
            #expect(after.types[name] == type, "\(name)")
        }
        #expect(after.codes == before.codes)
        #expect(after.service == before.service)
    }
}

/// A contract as plain text facts, for comparing two contracts whatever files and positions they came from.
struct Structure {
    var endpoints: [String: [String]] = [:]
    var types: [String: String] = [:]
    var codes: [String] = []
    var service: [String] = []

    /// The contract's named types, to expand references to types the other contract writes inline.
    private let declarations: [String: TypeDeclaration]
    private let named: Set<String>

    init(_ contract: Contract, named: Set<String>) {
        declarations = Dictionary(contract.types.map { (Self.normalized($0.key), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.named = named
        for endpoint in contract.endpoints {
            var facts = ["\(endpoint.method.rawValue) \(endpoint.path.description)", "auth \(endpoint.requiresAuth)", "deprecated \(endpoint.isDeprecated)",
                         "response \(describe(endpoint.response))", "codes \(endpoint.codes.sorted())",
                         "summary \(endpoint.summary ?? "")", "description \(endpoint.description ?? "")"]
            facts += endpoint.parameters.map { "param \($0.name) \(describe($0))" } + endpoint.query.map { "query \($0.name) \(describe($0))" }
            facts += endpoint.headers.map { "header \($0.name) \(describe($0))" }
            if let body = endpoint.body { facts.append("body \(describe(body))") }
            for part in endpoint.multipart ?? [] {
                switch part.content {
                case .text(let schema): facts.append("part \(part.name) \(part.isOptional) \(describe(schema)) \(part.description ?? "")")
                case .file(let rule): facts.append("part \(part.name) \(part.isOptional) file \(rule.maxSize) \(rule.contentTypes) \(part.description ?? "")")
                }
            }
            if let binary = endpoint.binary { facts.append("binary \(binary)") }
            if let stream = endpoint.stream { facts.append("stream \(stream.toggle) \(describe(stream.event))") }
            facts += endpoint.examples.map { "example \($0.name) \($0.code) \($0.body.map { "\($0.value)" } ?? "") \($0.response.map { "\($0.value)" } ?? "")" }
            endpoints[endpoint.id] = facts
        }
        for (name, type) in contract.types where !type.isGeneric {
            types[Self.normalized(name)] = describe(type.schema, expandObjects: true)
        }
        let service = contract.service
        codes = service.codes.map { "\($0.code) \($0.name) \($0.flow) \($0.httpStatus) \($0.message) \($0.data.map { describe($0) } ?? "")" }.sorted()
        self.service = [
            "\(service.name) \(service.version) \(service.basePath) \(service.envelope.map { "\($0.code) \($0.message) \($0.data)" } ?? "none")",
            "signing \(service.signing)", "auth \(service.auth)", "validation \(service.validation)", "swift \(service.swift.acronyms) \(service.swift.namespace ?? "-")",
            "errors \(service.errors.mediaType) \(service.errors.body.map { describe($0) } ?? "")",
        ] + service.headers.map { "header \($0.name) \(describe($0))" }
    }

    /// `Page<Match>` as the component name an import gives it back as: `PageMatch`.
    static func normalized(_ name: String) -> String {
        name.filter { $0.isLetter || $0.isNumber }
    }

    func describe(_ field: Field) -> String {
        describe(field.schema) + (field.isOptional ? "?" : "") + (field.isNullable ? " nullable" : "")
    }

    func describe(_ schema: Schema, expandObjects: Bool = false) -> String {
        var text: String
        switch schema.kind {
        case .primitive(let primitive): text = primitive.rawValue
        case .array(let item): text = "[\(describe(item))]"
        case .map(let value): text = "{string: \(describe(value))}"
        case .reference(let name):
            let key = Self.normalized(name)
            text = named.contains(key) ? key : declarations[key].map { describe($0.schema, expandObjects: true) } ?? key
        case .object(let fields): text = expandObjects || !fields.isEmpty ? "{" + fields.map { "\($0.name): \(describe($0))" }.joined(separator: ", ") + "}" : "{}"
        case .enumeration(let cases): text = "enum " + cases.cases.map { "\($0.name)=\($0.value)" }.joined(separator: " ")
        case .union(let union): text = "union \(union.discriminator) " + union.cases.map { "\($0.value):\(Self.normalized($0.typeName))" }.joined(separator: " ")
        }
        let constraints = schema.constraints
        let bounds = [constraints.minimum.map { "min \($0)" }, constraints.maximum.map { "max \($0)" }, constraints.minLength.map { "min_length \($0)" },
                      constraints.maxLength.map { "max_length \($0)" }, constraints.minItems.map { "min_items \($0)" },
                      constraints.maxItems.map { "max_items \($0)" }, constraints.pattern.map { "pattern \($0)" }]
        let notes = [schema.defaultValue.map { "default \($0.value)" }, schema.isDeprecated ? "deprecated" : nil, schema.description.map { "// \($0)" }]
        return ([text] + (bounds + notes).compactMap { $0 }).joined(separator: " ")
    }
}
