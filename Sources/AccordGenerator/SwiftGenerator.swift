import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordMocksFormat
import AccordSync

/// Generates the Swift for a contract: one file per model type, one per domain for
/// endpoints, a catalog, and the runtime support. Deterministic: the same contract
/// gives the same bytes on every run and machine.
///
/// ```swift
/// let files = SwiftGenerator(contract: contract, access: .public).files()
/// ```
public struct SwiftGenerator: Sendable {
    /// The access level of the generated declarations.
    public enum Access: String, Sendable, CaseIterable {
        case `public`, `internal`
    }

    /// One output file: its path below the output directory and its text.
    public struct File: Sendable, Hashable {
        public var path: String
        public var contents: String

        /// Every file in one, in path order, each after a `// MARK: - PATH` line: what a
        /// build-tool plugin compiles, as its outputs must be named before it runs.
        public static func joined(_ files: [File]) -> String {
            var text = GeneratedOutput.marker + " from every contract file and mocks/; do not edit.\n"
            for file in files.sorted(by: { $0.path < $1.path }) {
                text += "\n// MARK: - \(file.path)\n\n" + file.contents
            }
            return text
        }
    }

    public let contract: Contract
    public let access: Access
    /// The fixtures to emit as typed values, by endpoint id; none when empty.
    public let samples: [String: [FixtureSample]]
    /// The one type translator of the generation: every emitter names types through it.
    private let translator: TypeTranslator
    /// The fixtures typed once, for the files and the diagnostics alike.
    private let fixtures: FixtureEmitter
    /// Swift names with the contract's acronyms.
    private var naming: Naming { translator.naming }

    /// The enum every name is nested in (``output()``): the one asked for, else the service file's `swift.namespace`.
    public var namespace: String? { namespaceOverride ?? contract.service.swift.namespace }
    let namespaceOverride: String?

    /// `namespace` overrides the service file's.
    public init(contract: Contract, access: Access = .public, samples: [String: [FixtureSample]] = [:], namespace: String? = nil) {
        self.contract = contract
        self.access = access
        self.samples = samples
        namespaceOverride = namespace
        let translator = TypeTranslator(contract: contract)
        self.translator = translator
        fixtures = FixtureEmitter(contract: contract, access: Self.keyword(access), samples: samples, translator: translator)
    }

    /// `public ` or the empty string (internal).
    private static func keyword(_ access: Access) -> String {
        access == .public ? "public " : ""
    }

    /// The files, every name at the top level; ``output()`` nests them in the namespace.
    public func files() -> [File] {
        let accessKeyword = Self.keyword(access)
        let models = ModelEmitter(access: accessKeyword)
        let endpoints = EndpointEmitter(contract: contract, access: accessKeyword, translator: translator)
        let features: Set<Runtime.Feature> = contract.service.signing.isEnabled ? [.signing] : []
        var files = Runtime.files(access: accessKeyword, features: features).map { File(path: $0.path, contents: header("the Accord runtime") + $0.source) }
        files.append(File(path: "Support/ClientConfiguration.swift", contents: header("service.yaml") + "import Foundation\n\n"
                          + ConfigurationEmitter(contract: contract, access: accessKeyword, naming: naming).source()))

        // Each file is written on its own, so they are written on every core.
        // An instance (`Page<Match>`) is the generic struct with its argument: nothing to write.
        let declared = contract.types.values.sorted(by: { $0.name < $1.name }).filter { $0.instance == nil }
        files += declared.concurrentMap { declaration in
            model(translator.declaration(for: declaration), from: declaration.location.file, emitter: models)
        }

        var messageTypes: [String: (body: String?, response: String)] = [:]
        var inline: [(declaration: Declaration, file: String)] = []
        for endpoint in contract.endpoints {
            var declarations: [Declaration] = []
            messageTypes[endpoint.id] = endpoints.messageTypes(for: endpoint, models: &declarations)
            inline += declarations.map { ($0, endpoint.location.file) }
        }
        files += inline.concurrentMap { model($0.declaration, from: $0.file, emitter: models) }

        let domainTypes = messageTypes
        files += contract.domains.concurrentMap { domain in
            var writer = SwiftWriter()
            let domainEndpoints = contract.endpoints.filter { $0.domain == domain.name }
            endpoints.write(domain: domain, endpoints: domainEndpoints, messageTypes: domainTypes, into: &writer)
            return File(path: "Endpoints/API+\(naming.type(domain.name)).swift",
                        contents: header(TypeTranslator.fileName(domain.file)) + "import Foundation\n\n" + writer.text)
        }

        let refreshTypes = messageTypes[contract.service.auth.refreshEndpoint]
        var serviceEmitter = ServiceEmitter(contract: contract, access: accessKeyword, translator: translator)
        serviceEmitter.inlineResponses = contract.endpoints.compactMap { endpoint in
            guard case .object = endpoint.response.kind, let name = messageTypes[endpoint.id]?.response else { return nil }
            return (name, endpoint.response)
        }
        files.append(File(path: "Support/Service.swift", contents: header("service.yaml") + "import Foundation\n\n"
                          + serviceEmitter.source(refreshTypes: refreshTypes)))

        files.append(catalogFile(messageTypes: messageTypes, access: accessKeyword))
        if !samples.isEmpty { files += fixtureFiles(responseTypes: messageTypes.mapValues(\.response)) }
        return files.sorted { $0.path < $1.path }
    }

    /// `Models/NAME.swift`: one model declaration, from the contract file `file`.
    private func model(_ declaration: Declaration, from file: String, emitter: ModelEmitter) -> File {
        var writer = SwiftWriter()
        emitter.write(declaration, into: &writer)
        return File(path: "Models/\(declaration.name).swift", contents: header(TypeTranslator.fileName(file)) + "import Foundation\n\n" + writer.text)
    }

    /// `Endpoints/API+Catalog.swift`: every endpoint's response type by id, and the in-process mock's routes.
    private func catalogFile(messageTypes: [String: (body: String?, response: String)], access accessKeyword: String) -> File {
        var catalog = SwiftWriter()
        catalog.block("extension API") { writer in
            writer.line("/// The response type of every endpoint that answers JSON, by id, for generic tooling and tests.")
            writer.block("\(accessKeyword)static var responseTypes: [String: any Codable.Type]") { writer in
                // One statement per entry: a literal of 2,000 metatypes took the type checker seconds.
                writer.line("var types: [String: any Codable.Type] = [:]")
                // A binary endpoint answers bytes (AccordBinary), which are no JSON to decode or encode.
                for endpoint in contract.endpoints where endpoint.binary == nil {
                    writer.line("types[\(endpoint.id.swiftLiteral)] = \(messageTypes[endpoint.id]?.response ?? "AccordEmpty").self")
                }
                writer.line("return types")
            }
            writer.line()
            fixtures.routes(into: &writer)
        }
        return File(path: "Endpoints/API+Catalog.swift", contents: header("every contract file") + "import Foundation\n\n" + catalog.text)
    }

    /// `Fixtures/`: each domain's typed fixtures and their catalog.
    private func fixtureFiles(responseTypes: [String: String]) -> [File] {
        var files = contract.domains.concurrentMap { domain -> File? in
            guard let source = fixtures.source(domain: domain, responseTypes: responseTypes) else { return nil }
            return File(path: "Fixtures/API+\(naming.type(domain.name))Fixtures.swift",
                        contents: header("mocks/ and \(TypeTranslator.fileName(domain.file))") + "import Foundation\n\n" + source)
        }.compactMap { $0 }
        files.append(File(path: "Fixtures/API+FixtureCatalog.swift",
                          contents: header("mocks/ and the contract's examples") + "import Foundation\n\n" + fixtures.catalog()))
        return files
    }

    /// What the generated code cannot do for this contract, as warnings at the place to fix
    /// (what is wrong with the service file's namespace: ``namespaceDiagnostic()``).
    public func diagnostics() -> [Diagnostic] {
        var diagnostics = enumRenames()
        diagnostics += fixtures.diagnostics
        if contract.service.auth.refreshes, let reason = ServiceEmitter.refreshUnsupportedReason(contract) {
            let location = contract.endpoint(contract.service.auth.refreshEndpoint)?.location ?? contract.service.location
            diagnostics.append(.warning("the generated client will not refresh tokens by itself: \(reason)", at: location))
        }
        return diagnostics
    }

    /// A warning at every enum value whose Swift case had to be renamed (``Naming/caseNames(_:)``).
    private func enumRenames() -> [Diagnostic] {
        var pending: [Schema] = contract.types.values.filter { $0.instance == nil }.sorted { $0.name < $1.name }.map(\.schema)
        pending += contract.endpoints.flatMap(\.schemas)
        pending += contract.service.headers.map(\.schema)
        var diagnostics: [Diagnostic] = []
        while let schema = pending.popLast() {
            switch schema.kind {
            case .enumeration(let cases):
                for (item, name) in zip(cases.cases, naming.caseNames(cases.cases.map(\.name))) {
                    guard let natural = name.renamedFrom else { continue }
                    let why = Naming.reservedCaseNames.contains(natural) ? "every open enum has a member '\(natural)'" : "'\(natural)' is taken"
                    diagnostics.append(.warning("enum value '\(item.name)' is the case '\(Naming.bare(name.name))' in the generated Swift: \(why)",
                                                at: item.location))
                }
            case .array(let item), .map(let item): pending.append(item)
            case .object(let fields): pending += fields.map(\.schema)
            case .primitive, .reference, .union: break
            }
        }
        return diagnostics.sorted { $0.location < $1.location }
    }

    private func header(_ source: String) -> String {
        "// Generated by accord from \(source); do not edit.\n\n"
    }
}
