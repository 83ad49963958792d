import AccordContract
import AccordDiagnostics

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
    }

    public let contract: Contract
    public let access: Access

    public init(contract: Contract, access: Access = .public) {
        self.contract = contract
        self.access = access
    }

    public func files() -> [File] {
        let accessKeyword = access == .public ? "public " : ""
        let translator = TypeTranslator(contract: contract)
        let models = ModelEmitter(access: accessKeyword)
        let endpoints = EndpointEmitter(contract: contract, access: accessKeyword, translator: translator)
        var files: [File] = [File(path: "Support/AccordRuntime.swift", contents: header("the Accord runtime") + RuntimeSupport.source(access: accessKeyword))]

        for declaration in contract.types.values.sorted(by: { $0.name < $1.name }) {
            var writer = SwiftWriter()
            models.write(translator.declaration(for: declaration), into: &writer)
            files.append(File(path: "Models/\(declaration.name).swift",
                              contents: header(TypeTranslator.fileName(declaration.location.file)) + "import Foundation\n\n" + writer.text))
        }

        var messageTypes: [String: (body: String?, response: String)] = [:]
        for endpoint in contract.endpoints {
            var declarations: [Declaration] = []
            messageTypes[endpoint.id] = endpoints.messageTypes(for: endpoint, models: &declarations)
            for declaration in declarations {
                var writer = SwiftWriter()
                models.write(declaration, into: &writer)
                files.append(File(path: "Models/\(declaration.name).swift",
                                  contents: header(TypeTranslator.fileName(endpoint.location.file)) + "import Foundation\n\n" + writer.text))
            }
        }

        for domain in contract.domains {
            var writer = SwiftWriter()
            let domainEndpoints = contract.endpoints.filter { $0.domain == domain.name }
            endpoints.write(domain: domain, endpoints: domainEndpoints, messageTypes: messageTypes, into: &writer)
            files.append(File(path: "Endpoints/API+\(Naming.type(domain.name)).swift",
                              contents: header(TypeTranslator.fileName(domain.file)) + "import Foundation\n\n" + writer.text))
        }

        let refreshTypes = messageTypes[contract.service.auth.refreshEndpoint]
        var serviceEmitter = ServiceEmitter(contract: contract, access: accessKeyword)
        serviceEmitter.inlineResponses = contract.endpoints.compactMap { endpoint in
            guard case .object = endpoint.response.kind, let name = messageTypes[endpoint.id]?.response else { return nil }
            return (name, endpoint.response)
        }
        files.append(File(path: "Support/Service.swift", contents: header("service.yaml") + "import Foundation\n\n"
                          + serviceEmitter.source(refreshTypes: refreshTypes)))
        files.append(File(path: "Support/AccordClient.swift", contents: header("the Accord runtime") + RuntimeClient.source(access: accessKeyword)))
        files.append(File(path: "Support/AccordSigning.swift", contents: header("the Accord runtime") + RuntimeSigning.source(access: accessKeyword)))

        var catalog = SwiftWriter()
        catalog.block("extension API") { writer in
            writer.line("/// The response type of every endpoint, by id, for generic tooling and tests.")
            writer.block("\(accessKeyword)static var responseTypes: [String: any Codable.Type]") { writer in
                writer.line("[")
                for endpoint in contract.endpoints {
                    writer.line("    \(endpoint.id.swiftLiteral): \(messageTypes[endpoint.id]?.response ?? "AccordEmpty").self,")
                }
                writer.line("]")
            }
        }
        files.append(File(path: "Endpoints/API+Catalog.swift", contents: header("every contract file") + "import Foundation\n\n" + catalog.text))
        return files.sorted { $0.path < $1.path }
    }

    /// What the generated code cannot do for this contract, as warnings at the place to fix.
    public func diagnostics() -> [Diagnostic] {
        guard let reason = ServiceEmitter.refreshUnsupportedReason(contract) else { return [] }
        let location = contract.endpoint(contract.service.auth.refreshEndpoint)?.location ?? contract.service.location
        return [.warning("the generated client will not refresh tokens by itself: \(reason)", at: location)]
    }

    private func header(_ source: String) -> String {
        "// Generated by accord from \(source); do not edit.\n\n"
    }
}
