import AccordDiagnostics
import AccordSync
import AccordYAML
import Foundation

/// Loads a contracts directory into one ``Contract``, reporting every problem.
///
/// ```swift
/// let outcome = ContractLoader().load(directory: "contracts")
/// outcome.diagnostics.forEach { print($0) }
/// if let contract = outcome.contract, !outcome.diagnostics.containsErrors { … }
/// ```
public struct ContractLoader: Sendable {
    /// A contract file's path (as shown in diagnostics) and bytes.
    public struct Source: Sendable {
        public var path: String
        public var bytes: [UInt8]

        public init(path: String, bytes: [UInt8]) {
            self.path = path
            self.bytes = bytes
        }

        /// The `*.yaml` and `*.yml` files directly inside `directory`, in name order, and
        /// an error for each that cannot be read; nil if `directory` is not a directory.
        public static func yamlFiles(in directory: String) -> (sources: [Source], unreadable: [Diagnostic])? {
            let fileManager = FileManager.default
            var isDirectory: ObjCBool = false
            guard fileManager.fileExists(atPath: directory, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
            var sources: [Source] = []
            var unreadable: [Diagnostic] = []
            let names = ((try? fileManager.contentsOfDirectory(atPath: directory)) ?? [])
                .filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
                .sorted()
            for name in names {
                let path = (directory as NSString).appendingPathComponent(name)
                if let data = fileManager.contents(atPath: path) {
                    sources.append(Source(path: path, bytes: Array(data)))
                } else {
                    unreadable.append(.error("cannot read '\(path)'", at: SourceLocation(file: path)))
                }
            }
            return (sources, unreadable)
        }
    }

    /// What loading produced.
    public struct Outcome: Sendable {
        /// The assembled contract, present whenever a service file could be read, so
        /// later checks (examples, fixtures) can run even when earlier ones failed.
        /// Use it for serving or generating only when `diagnostics` has no error.
        public var contract: Contract?
        /// Every problem, sorted by file, line and column.
        public var diagnostics: [Diagnostic]
    }

    public var limits: YAMLParser.Limits

    public init(limits: YAMLParser.Limits = YAMLParser.Limits()) {
        self.limits = limits
    }

    /// Contracts of more bytes than this in all are parsed on every core (a large API's, as
    /// `scripts/bench/generate.sh` makes); fewer, as the repository's, on the calling thread.
    static let parallelBytes = 128 << 10

    /// Loads every `*.yaml` and `*.yml` file directly inside `directory`.
    public func load(directory: String) -> Outcome {
        guard let (sources, unreadable) = Source.yamlFiles(in: directory) else {
            return Outcome(contract: nil, diagnostics: [.error("contracts directory '\(directory)' does not exist", at: SourceLocation(file: directory))])
        }
        var outcome = load(sources, directory: directory)
        outcome.diagnostics = (unreadable + outcome.diagnostics).sortedByLocation()
        return outcome
    }

    /// Loads the given files as one contract; `directory` names the set in diagnostics.
    public func load(_ sources: [Source], directory: String) -> Outcome {
        guard !sources.isEmpty else {
            return Outcome(contract: nil, diagnostics: [.error("no contract files (*.yaml, *.yml) in '\(directory)'", at: SourceLocation(file: directory))])
        }
        var files = ContractFiles()
        // Each file parsed (and a domain file read) on its own, as none needs another, then merged in order:
        // on every core when there is enough to parse to pay for the threads.
        let limits = limits
        let parse = { @Sendable (source: Source) in ParsedFile(source, limits: limits) }
        let parsed = sources.reduce(0) { $0 + $1.bytes.count } > Self.parallelBytes ? sources.concurrentMap(parse) : sources.map(parse)
        for file in parsed { files.add(file) }
        files.mergeDomainCodes()
        var diagnostics = files.diagnostics
        let (service, domains, serviceTypes) = (files.service, files.domains, files.serviceTypes)
        if files.serviceLocation == nil && !domains.isEmpty {
            diagnostics.append(.error("no service file in '\(directory)': one file must declare 'service:' (its name, base path and codes)",
                                      at: SourceLocation(file: directory)))
        }

        let instances = GenericInstances.declare(in: serviceTypes + domains, service: service)
        let instanceFiles = instances.isEmpty ? [] : [DomainFile(domain: Domain(name: "generic instances", file: directory, description: nil,
                                                                                  typeNames: instances.map(\.name), endpointIDs: []),
                                                                 types: instances, endpoints: [], routeLocations: [:])]
        diagnostics += ContractChecker(service: service, files: serviceTypes + domains + instanceFiles, references: files.references).check()

        let contract = service.map { service in
            Contract(
                service: service,
                domains: domains.map(\.domain),
                types: Dictionary((serviceTypes + domains + instanceFiles).flatMap(\.types).map { ($0.name, $0) },
                                  uniquingKeysWith: { first, _ in first }),
                // Without an auth section there is no credential to need: every endpoint is public.
                endpoints: domains.flatMap(\.endpoints).map { endpoint in
                    var endpoint = endpoint
                    if service.auth.kind == .none { endpoint.requiresAuth = false }
                    return endpoint
                }
            )
        }
        return Outcome(contract: contract, diagnostics: diagnostics.sortedByLocation())
    }
}

/// The contract files read one by one: the service, the domains, what each reported.
private struct ContractFiles {
    var diagnostics: [Diagnostic] = []
    var service: Service?
    /// Where the service file declares `service:`; nil until one does.
    var serviceLocation: SourceLocation?
    var domains: [DomainFile] = []
    /// The service file's own types (the payloads of business codes), checked with the domains'.
    var serviceTypes: [DomainFile] = []
    var references: [EndpointReference] = []
    /// The `codes:` tables of domain files, read once the service says how codes are keyed.
    var domainCodes: [(document: YAMLDocument, node: Node)] = []

    /// Takes in one file: its domain, or, for the service file, the service read now in order.
    mutating func add(_ file: ParsedFile) {
        diagnostics += file.diagnostics
        switch file.kind {
        case .domain(let domain, let codes):
            if let domain { domains.append(domain) }
            if let codes { domainCodes.append((file.document, codes)) }
        case .service(var reader, let pairs, let root, let serviceNode):
            if let first = serviceLocation {
                reader.error("a second service file; the service is already declared at \(first)", at: serviceNode)
            } else {
                serviceLocation = reader.location(serviceNode)
                service = reader.service(pairs, at: root, references: &references)
                if let types = root["types"] {
                    let declarations = reader.typeDeclarations(types, domain: "service")
                    serviceTypes = [DomainFile(domain: Domain(name: "service", file: file.document.file, description: nil,
                                                              typeNames: declarations.map(\.name), endpointIDs: []),
                                               types: declarations, endpoints: [], routeLocations: [:])]
                }
            }
            diagnostics += reader.diagnostics
        case .unusable:
            break
        }
    }

    /// Adds each domain file's codes to the service's table, in the form the service
    /// uses (business codes in an envelope, HTTP statuses without one). A code that
    /// another file declares too is an error naming both places.
    mutating func mergeDomainCodes() {
        guard var service else { return }
        for (document, node) in domainCodes {
            var reader = NodeReader(document: document)
            let codes = service.envelope == nil ? reader.statusCodes(node) : reader.codes(node)
            reader.checkFlows(codes, auth: service.auth)
            if service.envelope == nil { reader.checkErrorBodies(codes, errors: service.errors, at: node) }
            for code in codes {
                if let other = service.codes.first(where: { $0.clashes(with: code) }) {
                    reader.error("code \(code.code) ('\(code.name)') is declared at \(other.location) too ('\(other.name)');"
                                 + " a code means one thing in the whole service", at: code.location)
                } else if let other = service.codes.first(where: { $0.name == code.name }) {
                    reader.error("the name '\(code.name)' of code \(code.code) is taken by code \(other.code) at \(other.location);"
                                 + " each code needs its own name", at: code.location)
                } else {
                    service.codes.append(code)
                }
            }
            diagnostics += reader.diagnostics
        }
        self.service = service
    }
}

/// One contract file parsed and, when it is a domain file, read: what loading can do for a
/// file without the others, so files are taken on every core.
private struct ParsedFile: Sendable {
    /// What the file turned out to be.
    enum Kind: Sendable {
        /// A domain file: its domain (nil when it cannot be read) and its `codes:` table, read once the service is.
        case domain(DomainFile?, codes: Node?)
        /// The service file, read in order (a second one is an error naming the first): its root and `service:` node.
        case service(NodeReader, pairs: [Node.Pair], root: Node, service: Node)
        /// Empty, not a mapping or neither kind: reported already.
        case unusable
    }

    var document: YAMLDocument
    var kind: Kind = .unusable
    /// What parsing and reading the file reported so far.
    var diagnostics: [Diagnostic]

    init(_ source: ContractLoader.Source, limits: YAMLParser.Limits) {
        document = YAMLParser.parse(source.bytes, file: source.path, limits: limits)
        diagnostics = document.diagnostics
        guard let root = document.root else {
            if document.diagnostics.isEmpty {
                diagnostics.append(.error("empty contract file; a contract file starts with 'service:' or 'domain:'",
                                          at: SourceLocation(file: source.path, line: 1, column: 1)))
            }
            return
        }
        var reader = NodeReader(document: document)
        guard let pairs = reader.mapping(root, "a contract file") else {
            diagnostics += reader.diagnostics
            return
        }
        if let service = root["service"] {
            kind = .service(reader, pairs: pairs, root: root, service: service)
            return
        }
        if root["domain"] != nil {
            kind = .domain(reader.domain(pairs, at: root), codes: root["codes"])
        } else {
            reader.error("a contract file starts with 'service:' (the service file) or 'domain:' (a domain file)", at: root)
        }
        diagnostics += reader.diagnostics
    }
}
