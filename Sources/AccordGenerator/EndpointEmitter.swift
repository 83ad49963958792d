import AccordContract

/// Writes one domain's endpoints: `extension API { static let signal = SignalEndpoints() }`
/// and a struct whose methods build typed ``Endpoint`` descriptions.
struct EndpointEmitter {
    let contract: Contract
    let access: String
    let translator: TypeTranslator
    var naming: Naming { translator.naming }

    /// The names of the body and response types of `endpoint`, and the models they need.
    func messageTypes(for endpoint: Endpoint, models: inout [Declaration]) -> (body: String?, response: String) {
        let base = naming.type(endpoint.id)
        let file = TypeTranslator.fileName(endpoint.location.file)
        let body = endpoint.body.map { translator.type(for: $0, suggestedName: base + "Request", file: file, nested: &models) }
        // A binary endpoint answers bytes: the runtime's AccordBinary, whatever `response` would say.
        let response = endpoint.binary != nil ? "AccordBinary"
            : translator.type(for: endpoint.response, suggestedName: base + "Response", file: file, nested: &models)
        return (body, response)
    }

    func write(domain: Domain, endpoints: [Endpoint], messageTypes: [String: (body: String?, response: String)], into writer: inout SwiftWriter) {
        let structName = naming.type(domain.name) + "Endpoints"
        writer.block("extension API") { writer in
            writer.documentation(domain.description, remark: "The `\(domain.name)` domain, \(TypeTranslator.fileName(domain.file))")
            writer.line("\(access)static let \(naming.property(domain.name)) = \(structName)()")
        }
        writer.line()
        writer.line("/// The endpoints of the `\(domain.name)` domain.")
        writer.block("\(access)struct \(structName): Sendable") { writer in
            writer.line("\(access)init() {}")
            var nested: [Declaration] = []
            for endpoint in endpoints {
                writer.line()
                write(endpoint, types: messageTypes[endpoint.id] ?? (nil, "AccordEmpty"), nested: &nested, into: &writer)
            }
            let models = ModelEmitter(access: access)
            for declaration in nested {
                writer.line()
                models.write(declaration, into: &writer)
            }
        }
    }

    private func write(_ endpoint: Endpoint, types: (body: String?, response: String), nested: inout [Declaration], into writer: inout SwiftWriter) {
        let function = naming.endpointFunction(endpoint.id, domain: endpoint.domain)
        let file = TypeTranslator.fileName(endpoint.location.file)
        var summary = endpoint.summary ?? ""
        if let description = endpoint.description { summary += summary.isEmpty ? description : "\n\n" + description }
        writer.documentation(summary.isEmpty ? nil : summary,
                             remark: "HTTP `\(endpoint.method.rawValue) \(endpoint.path)`, `\(endpoint.id)` in \(file)")
        if endpoint.isDeprecated { writer.line("@available(*, deprecated)") }

        var parameters: [String] = []
        func parameter(_ field: Field) -> (swift: String, type: String, isOptional: Bool) {
            let swift = naming.property(field.name)
            let type = translator.type(for: field.schema, suggestedName: naming.type(function) + naming.type(field.name), file: file, nested: &nested)
            return (swift, type, field.isOptional)
        }
        let path = endpoint.parameters.map(parameter)
        let query = endpoint.query.map(parameter)
        let headers = endpoint.headers.map(parameter)
        // Multipart parts: text parts typed like query parameters, file parts as `FilePart`s.
        let textParts = endpoint.textParts
        let fileParts = (endpoint.multipart ?? []).filter { $0.file != nil }
        parameters += path.map { "\($0.swift): \($0.type)" }
        if let body = types.body { parameters.append((path.isEmpty ? "_ body" : "body") + ": \(body)") }
        parameters += fileParts.map { "\(naming.property($0.name)): FilePart\($0.isOptional ? "? = nil" : "")" }
        parameters += (textParts.map(parameter) + query + headers).map { "\($0.swift): \($0.type)\($0.isOptional ? "? = nil" : "")" }

        writer.block("\(access)func \(function)(\(parameters.joined(separator: ", "))) -> Endpoint<\(types.response)>") { writer in
            writeRequest(endpoint, response: types.response, hasBody: types.body != nil, textParts: textParts, fileParts: fileParts,
                         wrapped: ("return Endpoint(", ")"), into: &writer)
        }
        guard let stream = endpoint.stream, types.body != nil else { return }
        // The same call asking for server-sent events: its parameters, with the body's toggle set.
        let eventType = translator.type(for: stream.event, suggestedName: naming.type(endpoint.id) + "Event", file: file, nested: &nested)
        writer.line()
        writer.documentation("\(endpoint.summary ?? endpoint.id), streamed: one `\(eventType)` per event.",
                             remark: "HTTP `\(endpoint.method.rawValue) \(endpoint.path)` with `\(stream.toggle): true`, `\(endpoint.id)`")
        writer.block("\(access)func \(Naming.bare(function))Stream(\(parameters.joined(separator: ", "))) -> StreamEndpoint<\(eventType)>") { writer in
            writer.line("var body = body")
            writer.line("body.\(naming.property(stream.toggle)) = true")
            writeRequest(endpoint, response: "AccordEmpty", hasBody: true, textParts: textParts, fileParts: fileParts,
                         wrapped: ("return StreamEndpoint(request: Endpoint(", "))"), into: &writer)
        }
    }

    /// The statements that build the request: its lists, then `wrapped` around the `Endpoint(…)` arguments.
    private func writeRequest(_ endpoint: Endpoint, response: String, hasBody: Bool, textParts: [Field], fileParts: [MultipartPart],
                              wrapped: (opening: String, closing: String), into writer: inout SwiftWriter) {
        let pathExpression = endpoint.path.segments.map { segment -> String in
            switch segment {
            case .literal(let text):
                return text
            case .parameter(let name):
                let field = endpoint.parameters.first { $0.name == name }
                let value = field.map { stringExpression(naming.property($0.name), schema: $0.schema) } ?? "\"\""
                return "\\(Endpoint<\(response)>.segment(\(value)))"
            }
        }
        writeItems(of: endpoint, textParts: textParts, fileParts: fileParts, into: &writer)
        writer.line(wrapped.opening)
        writer.line("    id: \(endpoint.id.swiftLiteral), method: .\(endpoint.method.rawValue.lowercased()),")
        writer.line("    path: \"/\(pathExpression.joined(separator: "/"))\", query: query, headers: headers,")
        let retries = endpoint.retriesFaults.map { ", retriesFaults: \($0)" } ?? ""
        if endpoint.multipart != nil {
            writer.line("    multipart: MultipartBody(fields: fields, files: files), requiresAuth: \(endpoint.requiresAuth)\(retries)")
        } else {
            writer.line("    body: \(hasBody ? "body" : "nil"), requiresAuth: \(endpoint.requiresAuth)\(retries)")
        }
        writer.line(wrapped.closing)
    }

    /// The lists the endpoint's call builds: its query items, headers and, for a multipart body, its fields and files.
    private func writeItems(of endpoint: Endpoint, textParts: [Field], fileParts: [MultipartPart], into writer: inout SwiftWriter) {
        writer.line("\(endpoint.query.isEmpty ? "let" : "var") query: [QueryItem] = []")
        appendItems(endpoint.query, to: "query", into: &writer)
        writer.line("\(endpoint.headers.isEmpty ? "let" : "var") headers: [QueryItem] = []")
        appendItems(endpoint.headers, to: "headers", into: &writer)
        guard endpoint.multipart != nil else { return }
        writer.line("\(textParts.isEmpty ? "let" : "var") fields: [QueryItem] = []")
        appendItems(textParts, to: "fields", into: &writer)
        writer.line("\(fileParts.isEmpty ? "let" : "var") files: [(name: String, file: FilePart)] = []")
        for part in fileParts {
            let name = naming.property(part.name)
            writer.line(part.isOptional ? "if let \(Naming.bare(name))File = \(name) { files.append((\(part.name.swiftLiteral), \(Naming.bare(name))File)) }"
                                        : "files.append((\(part.name.swiftLiteral), \(name)))")
        }
    }

    private func appendItems(_ fields: [Field], to list: String, into writer: inout SwiftWriter) {
        for field in fields {
            let name = naming.property(field.name)
            let item = Naming.bare(name) + "Value"
            let resolved = contract.resolvedKind(of: field.schema)
            let isArray: Bool = if case .array = resolved { true } else { false }
            let element: Schema = if case .array(let itemSchema) = resolved { itemSchema } else { field.schema }
            let append = "\(list).append(QueryItem(name: \(field.name.swiftLiteral), value: \(stringExpression(item, schema: element))))"
            switch (field.isOptional, isArray) {
            case (true, true): writer.line("for \(item) in \(name) ?? [] { \(append) }")
            case (false, true): writer.line("for \(item) in \(name) { \(append) }")
            case (true, false): writer.line("if let \(item) = \(name) { \(append) }")
            case (false, false): writer.line("do { let \(item) = \(name); \(append) }")
            }
        }
    }

    /// Swift that turns `variable` (of `schema`'s type) into the text sent.
    private func stringExpression(_ variable: String, schema: Schema) -> String {
        switch contract.resolvedKind(of: schema) {
        case .primitive(.string): variable
        case .primitive(.url): "\(variable).absoluteString"
        case .primitive(.bool): "(\(variable) ? \"true\" : \"false\")"
        case .primitive(.int), .primitive(.int64), .primitive(.double): "String(\(variable))"
        case .primitive(.decimal), .primitive(.dateTime): "\(variable).text"
        case .primitive(.date): "\(variable).description"
        case .enumeration(let cases): cases.isIntegral ? "String(\(variable).rawValue)" : "\(variable).rawValue"
        default: "String(describing: \(variable))"
        }
    }

}
