import AccordContract

/// Translates a domain's endpoints into ``DomainDeclaration``s: their functions'
/// names, parameters and types, and how each value reaches the request.
struct EndpointTranslator {
    let contract: Contract
    /// The generation's one type translator.
    let translator: TypeTranslator
    var naming: Naming { translator.naming }

    /// The types of an endpoint's body and response (nil body: it takes none).
    struct MessageTypes: Sendable {
        var body: String?
        var response: String
    }

    /// The names of the body and response types of `endpoint`, and the models they need.
    func messageTypes(for endpoint: Endpoint, models: inout [Declaration]) -> MessageTypes {
        let base = naming.endpointType(endpoint.id)
        let file = TypeTranslator.fileName(endpoint.location.file)
        let body = endpoint.body.map { translator.type(for: $0, suggestedName: base + "Request", file: file, nested: &models) }
        // A binary endpoint answers bytes: the runtime's AccordBinary, whatever `response` would say.
        let response = endpoint.binary != nil ? "AccordBinary"
            : translator.type(for: endpoint.response, suggestedName: base + "Response", file: file, nested: &models)
        return MessageTypes(body: body, response: response)
    }

    /// The declaration of `domain` with its `endpoints`, whose message types are `messageTypes` by id.
    func declaration(of domain: Domain, endpoints: [Endpoint], messageTypes: [String: MessageTypes]) -> DomainDeclaration {
        var nested: [Declaration] = []
        let declarations = endpoints.map { endpoint in
            declaration(of: endpoint, types: messageTypes[endpoint.id] ?? MessageTypes(response: "AccordEmpty"), nested: &nested)
        }
        let file = TypeTranslator.fileName(domain.file)
        let renames = naming.domainNames[domain.name].flatMap { name in
            TypeTranslator.renameWarning(of: "domain '\(domain.name)'", as: "property", name,
                                         reserved: (Naming.reservedDomainNames, "the generated code has its own"), at: domain.location)
        }
        let type = naming.domainType(domain.name)
        return DomainDeclaration(name: domain.name, property: naming.domainProperty(domain.name), structName: type + "Endpoints",
                                 fileName: "API+\(type).swift", sourceFile: file,
                                 documentation: Declaration.Documentation(summary: domain.description, remark: "The `\(domain.name)` domain, \(file)"),
                                 endpoints: declarations, nested: nested, renames: renames.map { [$0] } ?? [])
    }

    private func declaration(of endpoint: Endpoint, types: MessageTypes, nested: inout [Declaration]) -> EndpointDeclaration {
        let function = naming.endpointFunction(endpoint.id, domain: endpoint.domain)
        let file = TypeTranslator.fileName(endpoint.location.file)
        let names = EndpointValueNames(of: endpoint, hasBody: types.body != nil, naming: naming)
        var summary = endpoint.summary ?? ""
        if let description = endpoint.description { summary += summary.isEmpty ? description : "\n\n" + description }
        let path = endpoint.path.segments.map { segment -> EndpointDeclaration.PathSegment in
            switch segment {
            case .literal(let text):
                return .literal(text)
            case .parameter(let name):
                guard let field = endpoint.parameters.first(where: { $0.name == name }) else { return .parameter(variable: nil, form: .string) }
                return .parameter(variable: names[.path, field.name], form: form(of: field.schema))
            }
        }
        let fileParts = (endpoint.multipart ?? []).filter { $0.file != nil }
        let multipart = endpoint.multipart.map { _ in
            (text: endpoint.textParts.map { item($0, named: names[.part, $0.name]) }, files: fileParts.map {
                EndpointDeclaration.FilePart(wireName: $0.name, variable: names[.part, $0.name], isOptional: $0.isOptional)
            })
        }
        let remark = "HTTP `\(endpoint.method.rawValue) \(endpoint.path)`, `\(endpoint.id)` in \(file)"
        var declaration = EndpointDeclaration(
            id: endpoint.id, method: endpoint.method.rawValue.lowercased(), function: function,
            documentation: Declaration.Documentation(summary: summary.isEmpty ? nil : summary, remark: remark),
            isDeprecated: endpoint.isDeprecated,
            parameters: parameters(of: endpoint, function: function, body: types.body, fileParts: fileParts, names: names, nested: &nested),
            bodyType: types.body, responseType: types.response, path: path,
            query: endpoint.query.map { item($0, named: names[.query, $0.name]) },
            headers: endpoint.headers.map { item($0, named: names[.header, $0.name]) }, multipart: multipart,
            requiresAuth: endpoint.requiresAuth, retriesFaults: endpoint.retriesFaults, renames: names.renames)
        if let name = naming.endpointFunctions[endpoint.id], let warning = TypeTranslator.renameWarning(
            of: "endpoint '\(endpoint.id)'", as: "function", name, reserved: (Naming.reservedFunctionNames, "each domain has a member"), at: endpoint.location) {
            declaration.renames.insert(warning, at: 0)
        }
        if let stem = naming.endpointTypes[endpoint.id], let natural = stem.renamedFrom {
            declaration.renames.insert(.warning("endpoint '\(endpoint.id)' names its inline types '\(stem.name)…' in the generated Swift: "
                                                + "'\(natural)' is taken", at: endpoint.location), at: 0)
        }
        if let name = naming.streamFunctions[endpoint.id], let warning = TypeTranslator.renameWarning(
            of: "the stream of endpoint '\(endpoint.id)'", as: "function", name, reserved: (Naming.reservedFunctionNames, "each domain has a member"),
            at: endpoint.location) {
            declaration.renames.insert(warning, at: 0)
        }
        // The checker refuses a stream without a body whose toggle is a bool member.
        if let stream = endpoint.stream, let body = endpoint.body {
            // The toggle's property, renamed as the body's members are when theirs clash.
            let fields = contract.types.objectFields(of: body) ?? []
            let toggle = zip(fields, naming.memberNames(fields)).first { $0.0.name == stream.toggle }?.1.name ?? naming.property(stream.toggle)
            let eventType = translator.type(for: stream.event, suggestedName: naming.endpointType(endpoint.id) + "Event", file: file, nested: &nested)
            declaration.stream = EndpointDeclaration.Stream(
                function: naming.streamFunction(endpoint.id), eventType: eventType, toggle: toggle,
                documentation: Declaration.Documentation(
                    summary: "\(endpoint.summary ?? endpoint.id), streamed: one `\(eventType)` per event.",
                    remark: "HTTP `\(endpoint.method.rawValue) \(endpoint.path)` with `\(stream.toggle): true`, `\(endpoint.id)`"))
        }
        return declaration
    }

    /// The parameters of the endpoint's function `function`: path parameters, the body,
    /// file parts, text parts, query and headers, named by `names`. An optional one
    /// defaults to nil, so a call names only what it sends.
    private func parameters(of endpoint: Endpoint, function: String, body: String?, fileParts: [MultipartPart],
                            names: EndpointValueNames, nested: inout [Declaration]) -> [EndpointDeclaration.Parameter] {
        let file = TypeTranslator.fileName(endpoint.location.file)
        func parameter(_ field: Field, in place: EndpointValueNames.Place) -> EndpointDeclaration.Parameter {
            let suggestedName = naming.type(function) + names.typeName(place, field.name)
            let type = translator.type(for: field.schema, suggestedName: suggestedName, file: file, nested: &nested)
            let name = names[place, field.name]
            return field.isOptional ? EndpointDeclaration.Parameter(name: name, type: type + "?", defaultValue: "nil")
                : EndpointDeclaration.Parameter(name: name, type: type)
        }
        // Translated in this order, which orders the nested types.
        var parameters = endpoint.parameters.map { parameter($0, in: .path) }
        let query = endpoint.query.map { parameter($0, in: .query) }
        let headers = endpoint.headers.map { parameter($0, in: .header) }
        let textParts = endpoint.textParts.map { parameter($0, in: .part) }
        if let body { parameters.append(EndpointDeclaration.Parameter(name: endpoint.parameters.isEmpty ? "_ body" : "body", type: body)) }
        parameters += fileParts.map { part in
            EndpointDeclaration.Parameter(name: names[.part, part.name], type: part.isOptional ? "FilePart?" : "FilePart",
                                          defaultValue: part.isOptional ? "nil" : nil)
        }
        return parameters + textParts + query + headers
    }

    /// A query item, header or text part: the parameter that holds it and how it becomes text.
    private func item(_ field: Field, named variable: String) -> EndpointDeclaration.Item {
        let resolved = contract.resolvedKind(of: field.schema)
        let element: Schema = if case .array(let itemSchema) = resolved { itemSchema } else { field.schema }
        let isArray: Bool = if case .array = resolved { true } else { false }
        return EndpointDeclaration.Item(wireName: field.name, variable: variable, form: form(of: element),
                                        isOptional: field.isOptional, isArray: isArray)
    }

    /// How a value of `schema`'s type becomes the text sent.
    private func form(of schema: Schema) -> EndpointDeclaration.TextForm {
        switch contract.resolvedKind(of: schema) {
        case .primitive(.string): .string
        case .primitive(.url): .url
        case .primitive(.bool): .bool
        case .primitive(.int), .primitive(.int64), .primitive(.double): .number
        case .primitive(.decimal), .primitive(.dateTime): .text
        case .primitive(.date): .description
        case .enumeration(let cases): .rawValue(isIntegral: cases.isIntegral)
        default: .describing
        }
    }
}
