import AccordContract
import AccordDiagnostics
import AccordJSON

/// One import run: the document read once, translated construct by construct into declarations,
/// endpoints, the service file and fixtures, every loss reported to `log`.
struct Importer {
    var references: References
    var log = ImportLog()
    let domainRule: OpenAPIImport.Domains
    var summary = OpenAPIImport.Summary()
    /// A 3.0 document (`nullable`, boolean `exclusiveMinimum`, `example`), read with 3.1 meaning.
    var isVersion30 = false

    /// The named types, in the order they were first needed.
    var declarations: [Declaration] = []
    var declarationIndex: [String: Int] = [:]
    var takenTypeNames: Set<String> = []
    /// Type names of the schemas `$ref`s name, by the reference's canonical target (`file#pointer`).
    var namesByTarget: [String: String] = [:]
    /// The component being declared, whose name an inline schema it only wraps takes.
    var pendingDeclaration: (name: String, index: Int)?
    /// Type names of inline schemas declared as named types, by where they are written (`file#pointer`).
    var inlineNames: [String: String] = [:]
    /// Named types that admit `null` wherever they are used (a 3.0 component with `nullable: true`).
    var nullableTypes: Set<String> = []
    /// Named types written `readOnly` or `writeOnly`.
    var oneWayTypes: Set<String> = []
    /// How deep the schema being translated is nested.
    var depth = 0
    /// Targets whose `allOf` is being merged, to tell a cycle through `allOf`.
    var merging: Set<String> = []
    /// Targets whose members were merged into another type by `allOf` (imported, though not by name).
    var mergedTargets: Set<String> = []

    var service = ServiceDraft()
    /// The descriptions of the document's tags, by domain name.
    var tagDescriptions: [String: String] = [:]
    var endpoints: [EndpointDraft] = []
    var takenEndpointIDs: Set<String> = []
    var takenRoutes: Set<String> = []
    /// The `stream:` of the operation being imported, from the `x-accord-stream` `accord openapi` writes.
    var operationStream: JSONValue?

    init(files: SpecFiles, domains: OpenAPIImport.Domains, envelope: Service.Envelope?) {
        references = References(files: files)
        domainRule = domains
        service.envelope = envelope
    }

    mutating func run() -> OpenAPIImport.Result {
        guard let root = references.files.root(), let version = documentVersion(root) else {
            if let refusal = references.files.refusal(for: references.files.rootPath) { log.add(refusal) }
            return OpenAPIImport.Result(files: [], diagnostics: log.finished, summary: summary)
        }
        isVersion30 = version.hasPrefix("3.0")
        readInfo(root)
        readRecord(root)
        readServers(root)
        readSecurity(root)
        readPaths(root)
        declareRecordedTypes(root)
        reportUnusedComponents(root)
        reportUnimported(root)
        let files = render()
        return OpenAPIImport.Result(files: files, diagnostics: log.finished.sortedByLocation(), summary: summary)
    }

    /// The document's `openapi` version when it is one the import reads; else an error and nil.
    private mutating func documentVersion(_ root: Spot) -> String? {
        guard root.isMapping else {
            log.error("not-openapi", "an OpenAPI document is a mapping with 'openapi', 'info' and 'paths'", at: root)
            return nil
        }
        guard let versionSpot = root["openapi"], let version = versionSpot.text else {
            if let swagger = root["swagger"] {
                log.error("not-openapi", "this is a Swagger \(swagger.text ?? "2.0") document; convert it to OpenAPI 3 first (for example with swagger2openapi)",
                          at: swagger)
            } else {
                log.error("not-openapi", "no 'openapi' version: this is not an OpenAPI document", at: root)
            }
            return nil
        }
        guard ["3.0", "3.1", "3.2"].contains(where: { version.hasPrefix($0 + ".") || version == $0 }) else {
            log.error("version-unsupported", "OpenAPI \(version) is not read; the import reads 3.0.x, 3.1.x and 3.2.x", at: versionSpot)
            return nil
        }
        return version
    }

    private mutating func readInfo(_ root: Spot) {
        for tag in root["tags"]?.items ?? [] {
            if let name = tag["name"]?.text, let description = tag["description"]?.text { tagDescriptions[Names.domain(name)] = description }
        }
        guard let info = root["info"] else {
            log.warn("info-missing", "the document has no 'info'; the service is named 'api', version 1.0.0", at: root)
            return
        }
        if let title = info["title"]?.text {
            service.title = title
            service.name = Names.domain(title)
        }
        if let version = info["version"]?.text { service.version = version }
        service.description = info["description"]?.text
    }

    /// Components no operation reaches are not imported (lint would call them unused); one warning names them.
    private mutating func reportUnusedComponents(_ root: Spot) {
        guard let schemas = root["components"]?["schemas"] else { return }
        let unused = schemas.members.filter { member in
            let key = SpecFiles.normalized(member.value.file) + "#" + member.value.pointer
            // `Refusal` of an `accord openapi` document is the mock's own refusal, not part of the API.
            return namesByTarget[key] == nil && !mergedTargets.contains(key) && !(service.recorded != nil && member.key == "Refusal")
        }.map(\.key)
        guard !unused.isEmpty else { return }
        let named = unused.prefix(5).joined(separator: ", ") + (unused.count > 5 ? ", …" : "")
        log.warn("schema-unused", "\(unused.count) component schemas no imported operation uses are not imported: \(named)", at: schemas)
    }

    /// Parts of the document the contract format has no place for, one warning each.
    private mutating func reportUnimported(_ root: Spot) {
        if let webhooks = root["webhooks"], !webhooks.members.isEmpty {
            log.warn("webhooks", "\(webhooks.members.count) webhooks not imported: Accord mocks the API the app calls, not calls the server makes",
                     at: webhooks)
        }
        for (name, _) in root["components"]?.members ?? [] where ["callbacks", "links", "pathItems"].contains(name) {
            if let spot = root["components"]?[name], !spot.members.isEmpty {
                log.warn(name == "links" ? "links" : "callbacks", "components '\(name)' are not imported", at: spot)
            }
        }
    }
}
