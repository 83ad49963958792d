import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordMocksFormat
import AccordSync

/// Generates the Swift for a contract: one file of models per contract file, one per
/// domain for endpoints, a catalog, and the runtime support. Deterministic: the same contract
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
    /// The translate phase's output, which ``files()`` renders and ``diagnostics()`` reports.
    private let translation: Translation

    /// The enum every name is nested in (``output()``): the one asked for, else the service file's `swift.namespace`.
    public var namespace: String? { namespaceOverride ?? contract.service.swift.namespace }
    let namespaceOverride: String?

    /// Translates `contract` (``files()`` renders it). `namespace` overrides the service file's.
    public init(contract: Contract, access: Access = .public, samples: [String: [FixtureSample]] = [:], namespace: String? = nil) {
        self.contract = contract
        self.access = access
        self.samples = samples
        namespaceOverride = namespace
        translation = Translation(contract: contract, samples: samples)
    }

    /// `public ` or the empty string (internal).
    private static func keyword(_ access: Access) -> String {
        access == .public ? "public " : ""
    }

    /// The files, every name at the top level; ``output()`` nests them in the namespace.
    public func files() -> [File] {
        let accessKeyword = Self.keyword(access)
        let features: Set<Runtime.Feature> = contract.service.signing.isEnabled ? [.signing] : []
        var files = Runtime.files(access: accessKeyword, features: features).map { File(path: $0.path, contents: header("the Accord runtime") + $0.source) }
        files.append(File(path: "Support/ClientConfiguration.swift", contents: header("service.yaml") + "import Foundation\n\n"
                          + ConfigurationRenderer(access: accessKeyword, declaration: translation.configuration).source()))

        // Each file is written on its own, so they are written on every core.
        let models = ModelRenderer(access: accessKeyword)
        files += translation.modelFiles.concurrentMap { file in
            var writer = SwiftWriter()
            for (index, declaration) in file.declarations.enumerated() {
                if index > 0 { writer.line() }
                models.write(declaration, into: &writer)
            }
            return File(path: "Models/" + file.fileName,
                        contents: header(file.sourceFiles.joined(separator: ", ")) + "import Foundation\n\n" + writer.text)
        }
        let endpoints = EndpointRenderer(access: accessKeyword)
        files += translation.domains.concurrentMap { domain in
            var writer = SwiftWriter()
            endpoints.write(domain, into: &writer)
            return File(path: "Endpoints/" + domain.fileName, contents: header(domain.sourceFile) + "import Foundation\n\n" + writer.text)
        }
        let service = ServiceRenderer(contract: contract, access: accessKeyword, declaration: translation.service)
        files.append(File(path: "Support/Service.swift", contents: header("service.yaml") + "import Foundation\n\n" + service.source()))
        files.append(catalogFile(access: accessKeyword))
        if !samples.isEmpty { files += fixtureFiles(access: accessKeyword) }
        return files.sorted { $0.path < $1.path }
    }

    /// `Endpoints/API+Catalog.swift`: every endpoint's response type by id, and the in-process mock's routes.
    private func catalogFile(access accessKeyword: String) -> File {
        var catalog = SwiftWriter()
        catalog.block("extension API") { writer in
            writer.line("/// The response type of every endpoint that answers JSON, by id, for generic tooling and tests.")
            // Read from the routes, which carry it: a statement per endpoint here cost the type checker
            // about as much as the routes themselves.
            writer.line("\(accessKeyword)static var responseTypes: [String: any Codable.Type] { mockRoutes.responseTypes }")
            writer.line()
            FixtureRenderer(access: accessKeyword, declarations: translation.fixtures).routes(into: &writer)
        }
        return File(path: "Endpoints/API+Catalog.swift", contents: header("every contract file") + "import Foundation\n\n" + catalog.text)
    }

    /// `Fixtures/`: each domain's typed fixtures and their catalog.
    private func fixtureFiles(access accessKeyword: String) -> [File] {
        let fixtures = FixtureRenderer(access: accessKeyword, declarations: translation.fixtures)
        var files = translation.fixtures.domains.concurrentMap { domain in
            File(path: "Fixtures/API+\(domain.typeName)Fixtures.swift",
                 contents: header("mocks/ and \(domain.sourceFile)") + "import Foundation\n\n" + fixtures.source(domain))
        }
        files.append(File(path: "Fixtures/API+FixtureCatalog.swift",
                          contents: header("mocks/ and the contract's examples") + "import Foundation\n\n" + fixtures.catalog()))
        return files
    }

    /// What the generated code cannot do for this contract, at the place to fix, collected
    /// while translating: warnings, and an error for what cannot be generated at all (a
    /// type named as one the generated code uses); what is wrong with the service file's
    /// namespace: ``namespaceDiagnostic()``.
    public func diagnostics() -> [Diagnostic] {
        translation.diagnostics
    }

    private func header(_ source: String) -> String {
        "// Generated by accord from \(source); do not edit.\n\n"
    }
}
