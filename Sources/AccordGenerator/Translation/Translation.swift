import AccordContract
import AccordDiagnostics
import AccordMocksFormat
import AccordSync

/// The translate phase: the whole generated code as declarations (models, each domain's
/// endpoints, the service and client configuration, the catalog's types, typed fixtures), and the warnings met
/// on the way. Rendering reads it and writes text; it decides nothing.
struct Translation: Sendable {
    /// A model and the contract file it comes from.
    struct Model: Sendable {
        var declaration: Declaration
        var sourceFile: String
    }

    /// The models of one contract file, written to one file (`Models/SignalModels.swift`):
    /// a debug build compiles a file of a domain's models much faster than a file a type,
    /// because what each file's object needs of the types it uses (metadata and witness
    /// table accessors, debug information) is emitted once per file.
    struct ModelFile: Sendable {
        /// `SignalModels.swift`: the contract file's name as a type, and `Models`.
        var fileName: String
        /// The contract files the models come from: one, or several of one name in
        /// different folders.
        var sourceFiles: [String]
        /// By name.
        var declarations: [Declaration]
    }

    /// The named contract types and the endpoints' inline bodies and responses, by the
    /// contract file they come from.
    var modelFiles: [ModelFile]
    var domains: [DomainDeclaration]
    /// Each endpoint's body and response type, by id.
    var messageTypes: [String: EndpointTranslator.MessageTypes]
    var service: ServiceDeclaration
    var configuration: ConfigurationDeclaration
    /// The typed fixtures, their names, and the in-process mock's routes.
    var fixtures: FixtureDeclarations
    /// What the generated code cannot do for this contract, in source order.
    var diagnostics: [Diagnostic]

    init(contract: Contract, samples: [String: [FixtureSample]]) {
        let translator = TypeTranslator(contract: contract)
        var diagnostics: [Diagnostic] = []
        // A generic instance (`Page<Match>`) is the generic struct with its argument: nothing to declare.
        let declared = contract.types.values.sorted(by: { $0.name < $1.name }).filter { $0.instance == nil }
        for type in declared.filter({ Service.SwiftNaming.reservedTypeNames.contains($0.name) }).sorted(by: { $0.location < $1.location }) {
            diagnostics.append(.error("type '\(type.name)' has a name the generated Swift uses itself (Swift's, Foundation's or the client's): "
                                      + "rename it, e.g. '\(type.name)Model'", at: type.location))
        }
        var models = declared.concurrentMap { Model(declaration: translator.declaration(for: $0), sourceFile: TypeTranslator.fileName($0.location.file)) }

        let endpoints = EndpointTranslator(contract: contract, translator: translator)
        var messageTypes: [String: EndpointTranslator.MessageTypes] = [:]
        var inlineResponses: [(name: String, schema: Schema)] = []
        for endpoint in contract.endpoints {
            var declarations: [Declaration] = []
            let types = endpoints.messageTypes(for: endpoint, models: &declarations)
            messageTypes[endpoint.id] = types
            if case .object = endpoint.response.kind { inlineResponses.append((types.response, endpoint.response)) }
            models += declarations.map { Model(declaration: $0, sourceFile: TypeTranslator.fileName(endpoint.location.file)) }
        }
        let domainTypes = messageTypes
        domains = contract.domains.concurrentMap { domain in
            endpoints.declaration(of: domain, endpoints: contract.endpoints.filter { $0.domain == domain.name }, messageTypes: domainTypes)
        }
        service = ServiceTranslator(contract: contract, translator: translator)
            .declaration(messageTypes: messageTypes, inlineResponses: inlineResponses, diagnostics: &diagnostics)
        configuration = ConfigurationDeclaration(contract: contract, naming: translator.naming)
        fixtures = FixtureDeclarations(contract: contract, samples: samples, responseTypes: messageTypes.mapValues(\.response), translator: translator)

        var warnings = models.flatMap(\.declaration.warnings) + domains.flatMap { $0.renames + $0.nested.flatMap(\.warnings) + $0.endpoints.flatMap(\.renames) }
        warnings += service.nested.flatMap(\.warnings)
        // A value renamed in one place is one warning, wherever its type is declared.
        var seen: Set<Diagnostic> = []
        warnings = warnings.sorted { $0.location < $1.location }.filter { seen.insert($0).inserted }
        modelFiles = Self.files(of: models, naming: translator.naming)
        self.messageTypes = messageTypes
        self.diagnostics = warnings + fixtures.diagnostics + diagnostics
    }

    /// `models` by their contract file, the files by name and each file's models by name.
    private static func files(of models: [Model], naming: Naming) -> [ModelFile] {
        let byFile = Dictionary(grouping: models) { model in
            naming.type(String(model.sourceFile.prefix { $0 != "." })) + "Models.swift"
        }
        return byFile.sorted { $0.key < $1.key }.map { fileName, models in
            ModelFile(fileName: fileName, sourceFiles: Set(models.map(\.sourceFile)).sorted(),
                      declarations: models.map(\.declaration).sorted { $0.name < $1.name })
        }
    }
}
