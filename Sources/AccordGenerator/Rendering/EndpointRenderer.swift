/// Writes one domain's endpoints: `extension API { static let signal = SignalEndpoints() }`
/// and a struct whose methods build typed ``Endpoint`` descriptions.
struct EndpointRenderer {
    /// `public ` or the empty string (internal).
    let access: String

    func write(_ domain: DomainDeclaration, into writer: inout SwiftWriter) {
        writer.block("extension API") { writer in
            writer.documentation(domain.documentation.summary, remark: domain.documentation.remark)
            writer.line("\(access)static let \(domain.property) = \(domain.structName)()")
        }
        writer.line()
        writer.line("/// The endpoints of the `\(domain.name)` domain.")
        writer.block("\(access)struct \(domain.structName): Sendable") { writer in
            writer.line("\(access)init() {}")
            for endpoint in domain.endpoints {
                writer.line()
                write(endpoint, into: &writer)
            }
            let models = ModelRenderer(access: access)
            for declaration in domain.nested {
                writer.line()
                models.write(declaration, into: &writer)
            }
        }
    }

    private func write(_ endpoint: EndpointDeclaration, into writer: inout SwiftWriter) {
        writer.documentation(endpoint.documentation.summary, remark: endpoint.documentation.remark)
        if endpoint.isDeprecated { writer.line("@available(*, deprecated)") }
        let parameters = endpoint.parameters.map { "\($0.name): \($0.type)" + ($0.defaultValue.map { " = \($0)" } ?? "") }.joined(separator: ", ")
        writer.block("\(access)func \(endpoint.function)(\(parameters)) -> Endpoint<\(endpoint.responseType)>") { writer in
            writeRequest(endpoint, response: endpoint.responseType, hasBody: endpoint.bodyType != nil, wrapped: ("return Endpoint(", ")"), into: &writer)
        }
        guard let stream = endpoint.stream else { return }
        writer.line()
        writer.documentation(stream.documentation.summary, remark: stream.documentation.remark)
        writer.block("\(access)func \(stream.function)(\(parameters)) -> StreamEndpoint<\(stream.eventType)>") { writer in
            writer.line("var body = body")
            writer.line("body.\(stream.toggle) = true")
            writeRequest(endpoint, response: "AccordEmpty", hasBody: true, wrapped: ("return StreamEndpoint(request: Endpoint(", "))"), into: &writer)
        }
    }

    /// The names of the lists a call builds, none of them a parameter's: `query`, or
    /// `queryList` when the endpoint takes a query parameter called `query`.
    private struct ListNames {
        let query: String, headers: String, fields: String, files: String

        init(avoiding parameters: [EndpointDeclaration.Parameter]) {
            // A parameter as written is `label name` or `name`, a keyword in backticks.
            let taken = Set(parameters.map { Naming.bare(String($0.name.split(separator: " ").last ?? "")) })
            func free(_ base: String) -> String {
                var name = base, number = 1
                while taken.contains(name) {
                    name = base + "List" + (number == 1 ? "" : String(number))
                    number += 1
                }
                return name
            }
            query = free("query")
            headers = free("headers")
            fields = free("fields")
            files = free("files")
        }
    }

    /// The statements that build the request: its lists, then `wrapped` around the `Endpoint(…)` arguments.
    private func writeRequest(_ endpoint: EndpointDeclaration, response: String, hasBody: Bool,
                              wrapped: (opening: String, closing: String), into writer: inout SwiftWriter) {
        let names = ListNames(avoiding: endpoint.parameters)
        writeItems(of: endpoint, names: names, into: &writer)
        writer.line(wrapped.opening)
        writer.line("    id: \(endpoint.id.swiftLiteral), method: .\(endpoint.method),")
        // Only the lists there are and a body if there is one: the rest are the initializer's defaults.
        let lists = (endpoint.query.isEmpty ? "" : " query: \(names.query),") + (endpoint.headers.isEmpty ? "" : " headers: \(names.headers),")
        writer.line("    path: \(pathExpression(endpoint, response: response)),\(lists)")
        let retries = endpoint.retriesFaults.map { ", retriesFaults: \($0)" } ?? ""
        if endpoint.multipart != nil {
            writer.line("    multipart: MultipartBody(fields: \(names.fields), files: \(names.files)), requiresAuth: \(endpoint.requiresAuth)\(retries)")
        } else {
            writer.line("    \(hasBody ? "body: body, " : "")requiresAuth: \(endpoint.requiresAuth)\(retries)")
        }
        writer.line(wrapped.closing)
    }

    /// The path as Swift: a literal when it has no parameter, else ``joinedPath`` of its
    /// literal pieces and encoded parameters (an interpolation cost the type checker
    /// about twice as much).
    private func pathExpression(_ endpoint: EndpointDeclaration, response: String) -> String {
        var pieces: [String] = []
        var literal = ""
        for segment in endpoint.path {
            literal += "/"
            switch segment {
            case .literal(let text): literal += text
            case .parameter(let variable, let form):
                pieces.append("\"\(literal)\"")
                literal = ""
                pieces.append("Endpoint<\(response)>.segment(\(variable.map { text($0, form) } ?? "\"\""))")
            }
        }
        if !literal.isEmpty || pieces.isEmpty { pieces.append("\"\(literal.isEmpty ? "/" : literal)\"") }
        return pieces.count == 1 ? pieces[0] : "Endpoint<\(response)>.joinedPath(\(pieces.joined(separator: ", ")))"
    }

    /// The lists the endpoint's call builds: its query items, headers and, for a multipart body, its fields and files.
    private func writeItems(of endpoint: EndpointDeclaration, names: ListNames, into writer: inout SwiftWriter) {
        if !endpoint.query.isEmpty {
            writer.line("var \(names.query): [QueryItem] = []")
            appendItems(endpoint.query, to: names.query, into: &writer)
        }
        if !endpoint.headers.isEmpty {
            writer.line("var \(names.headers): [QueryItem] = []")
            appendItems(endpoint.headers, to: names.headers, into: &writer)
        }
        guard let multipart = endpoint.multipart else { return }
        writer.line("\(multipart.text.isEmpty ? "let" : "var") \(names.fields): [QueryItem] = []")
        appendItems(multipart.text, to: names.fields, into: &writer)
        writer.line("\(multipart.files.isEmpty ? "let" : "var") \(names.files): [(name: String, file: FilePart)] = []")
        for part in multipart.files {
            let name = part.variable
            writer.line(part.isOptional
                ? "if let \(Naming.bare(name))File = \(name) { \(names.files).append((\(part.wireName.swiftLiteral), \(Naming.bare(name))File)) }"
                : "\(names.files).append((\(part.wireName.swiftLiteral), \(name)))")
        }
    }

    private func appendItems(_ items: [EndpointDeclaration.Item], to list: String, into writer: inout SwiftWriter) {
        for item in items {
            let name = item.variable
            let value = Naming.bare(name) + "Value"
            let append = "\(list).append(QueryItem(name: \(item.wireName.swiftLiteral), value: \(text(value, item.form))))"
            switch (item.isOptional, item.isArray) {
            case (true, true): writer.line("for \(value) in \(name) ?? [] { \(append) }")
            case (false, true): writer.line("for \(value) in \(name) { \(append) }")
            case (true, false): writer.line("if let \(value) = \(name) { \(append) }")
            case (false, false): writer.line("do { let \(value) = \(name); \(append) }")
            }
        }
    }

    /// Swift that turns `variable` into the text sent, as `form` says.
    private func text(_ variable: String, _ form: EndpointDeclaration.TextForm) -> String {
        switch form {
        case .string: variable
        case .url: "\(variable).absoluteString"
        case .bool: "(\(variable) ? \"true\" : \"false\")"
        case .number: "\(variable).description"
        case .text: "\(variable).text"
        case .description: "\(variable).description"
        case .rawValue(let isIntegral): isIntegral ? "\(variable).rawValue.description" : "\(variable).rawValue"
        case .describing: "String(describing: \(variable))"
        }
    }
}
