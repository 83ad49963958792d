import AccordContract
import AccordDiagnostics

/// The Swift names of the values an endpoint's function takes, unique among each other:
/// a path parameter, a query item and a header may share a wire name (`id`), or two wire
/// names one Swift name (`in_progress`, `inProgress`). Named in the function's order, after
/// the body's `body`: path parameters, file parts, text parts, query, headers; a later one
/// whose name is taken gets a number (`id2`), one named `self` becomes `selfValue`, each
/// with a warning at its field.
struct EndpointValueNames {
    /// Where a value goes in the request; a wire name is unique in each.
    enum Place: String {
        case path = "path parameter", part = "multipart part", query = "query parameter", header
    }

    private let naming: Naming
    private var names: [Place: [String: (name: String, renamedFrom: String?)]] = [:]
    /// A warning at every value whose name had to change.
    private(set) var renames: [Diagnostic] = []

    init(of endpoint: Endpoint, hasBody: Bool, naming: Naming) {
        self.naming = naming
        let parts = endpoint.multipart ?? []
        let fileParts = parts.filter { $0.file != nil }.map { (name: $0.name, location: $0.location) }
        let textParts = endpoint.textParts.map { (name: $0.name, location: $0.location) }
        var values: [(place: Place, name: String, location: SourceLocation)] = endpoint.parameters.map { (.path, $0.name, $0.location) }
        values += (fileParts + textParts).map { (.part, $0.name, $0.location) }
        values += endpoint.query.map { (.query, $0.name, $0.location) } + endpoint.headers.map { (.header, $0.name, $0.location) }

        let body = hasBody ? ["body"] : []
        let unique = Naming.unique(body + values.map { naming.property($0.name) }, reserved: Naming.reservedParameterNames)
        for (value, name) in zip(values, unique.dropFirst(body.count)) {
            names[value.place, default: [:]][value.name] = name
            let what = "\(value.place.rawValue) '\(value.name)' of '\(endpoint.id)'"
            if let warning = TypeTranslator.renameWarning(of: what, as: "parameter", name,
                                                          reserved: (Naming.reservedParameterNames, "Swift reserves the parameter name"), at: value.location) {
                renames.append(warning)
            }
        }
    }

    /// The Swift name of the value `wireName` sent in `place`.
    subscript(place: Place, wireName: String) -> String {
        names[place]?[wireName]?.name ?? naming.property(wireName)
    }

    /// The value's name as a type, for a type it declares inline: its wire name's
    /// (`ai_chat` → `AIChat`), or its new one's when it was renamed (`InProgress2`).
    func typeName(_ place: Place, _ wireName: String) -> String {
        guard let name = names[place]?[wireName], name.renamedFrom != nil else { return naming.type(wireName) }
        return naming.type(Naming.bare(name.name))
    }
}
