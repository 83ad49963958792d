import AccordDiagnostics

/// The checks that need the whole contract at once: names across files, type
/// references, routes, path parameters, business codes and unused types.
struct ContractChecker {
    let service: Service?
    let files: [DomainFile]
    let references: [EndpointReference]
    private var diagnostics: [Diagnostic] = []
    private var types: [String: TypeDeclaration] = [:]

    init(service: Service?, files: [DomainFile], references: [EndpointReference]) {
        self.service = service
        self.files = files
        self.references = references
    }

    consuming func check() -> [Diagnostic] {
        collectTypes()
        checkEndpointIdentity()
        for file in files {
            // An instance's members are its generic's, checked there; its arguments where it is used.
            for declaration in file.types where declaration.instance == nil {
                checkReferences(in: declaration.schema, parameters: Set(declaration.parameters))
            }
            for endpoint in file.endpoints { check(endpoint, route: file.routeLocations[endpoint.id] ?? endpoint.location) }
        }
        if let service {
            check(service)
            for reference in files.flatMap(\.codeReferences) where service.code(reference.code) == nil {
                error("unknown business code \(reference.code) in \(reference.context)\(codeHint(service))", at: reference.location)
            }
        }
        reportUnusedTypes()
        return diagnostics
    }

    private mutating func error(_ message: String, at location: SourceLocation) {
        diagnostics.append(.error(message, at: location))
    }

    // MARK: Names

    private mutating func collectTypes() {
        for declaration in files.flatMap(\.types) {
            if let first = types[declaration.name] {
                error("duplicate type '\(declaration.name)' (first declared at \(first.location))", at: declaration.location)
            } else {
                types[declaration.name] = declaration
            }
        }
    }

    private mutating func checkEndpointIdentity() {
        var ids: [String: Endpoint] = [:]
        var routes: [String: Endpoint] = [:]
        for endpoint in files.flatMap(\.endpoints) {
            if let first = ids[endpoint.id] {
                error("duplicate endpoint id '\(endpoint.id)' (first declared at \(first.location))", at: endpoint.location)
                continue
            }
            ids[endpoint.id] = endpoint
            let route = "\(endpoint.method.rawValue) \(endpoint.path.shape)"
            if let first = routes[route] {
                error("'\(endpoint.id)' has the same route as '\(first.id)' (\(first.method.rawValue) \(first.path), declared at \(first.location))",
                      at: endpoint.location)
            } else {
                routes[route] = endpoint
            }
        }
    }

    // MARK: Endpoints

    private mutating func check(_ endpoint: Endpoint, route: SourceLocation) {
        let inPath = endpoint.path.parameterNames
        let declared = endpoint.parameters.map(\.name)
        for name in inPath where !declared.contains(name) {
            error("path parameter '\(name)' of '\(endpoint.id)' is not declared under 'params'", at: route)
        }
        for parameter in endpoint.parameters where !inPath.contains(parameter.name) {
            error("parameter '\(parameter.name)' is declared but not used in the path '\(endpoint.path)'", at: parameter.location)
        }
        for parameter in endpoint.parameters where parameter.isOptional {
            error("path parameter '\(parameter.name)' cannot be optional", at: parameter.location)
        }
        for (field, first) in endpoint.headers.repeatedHeaderNames() {
            error("header '\(field.name)' of '\(endpoint.id)' is '\(first.name)' again (declared at \(first.location)): header names are case-insensitive; "
                  + "declare it once", at: field.location)
        }
        for field in endpoint.parameters + endpoint.query + endpoint.headers {
            checkReferences(in: field.schema)
            if !isScalarLike(field.schema, allowArray: endpoint.query.contains(field)) {
                error("'\(field.name)' must be a scalar or an enum\(endpoint.query.contains(field) ? ", or an array of them" : ""); objects belong in the body",
                      at: field.location)
            }
        }
        if let body = endpoint.body {
            checkReferences(in: body)
            if endpoint.method == .get || endpoint.method == .delete {
                error("\(endpoint.method.rawValue) requests carry no body; use 'query' for '\(endpoint.id)'", at: body.location)
            }
        }
        if let parts = endpoint.multipart, let first = parts.first {
            if endpoint.body != nil {
                error("'\(endpoint.id)' declares both 'body' and 'multipart'; a request has one body", at: first.location)
            }
            if endpoint.method == .get || endpoint.method == .delete {
                error("\(endpoint.method.rawValue) requests carry no body; '\(endpoint.id)' cannot take 'multipart'", at: first.location)
            }
            for part in parts {
                guard case .text(let schema) = part.content else { continue }
                checkReferences(in: schema)
                if !isScalarLike(schema, allowArray: false) {
                    error("multipart part '\(part.name)' of '\(endpoint.id)' must be a scalar, an enum or a file (type: file)", at: part.location)
                }
            }
        }
        if endpoint.binary != nil, let stream = endpoint.stream {
            error("'\(endpoint.id)' answers bytes ('binary'); it cannot also stream", at: stream.event.location)
        }
        checkReferences(in: endpoint.response)
        if let stream = endpoint.stream {
            checkReferences(in: stream.event)
            let toggle = endpoint.body.flatMap { fields(of: $0) }?.first { $0.name == stream.toggle }
            if toggle?.schema.kind != .primitive(.bool) {
                error("the stream toggle '\(stream.toggle)' must be a bool field of the body of '\(endpoint.id)'", at: stream.event.location)
            }
        }
    }

    private func codeHint(_ service: Service) -> String {
        let declared = Set(service.codes.map(\.code)).sorted().map(String.init).joined(separator: ", ")
        let add = "declare it under 'codes' in this domain file or the service file"
        return declared.isEmpty ? "; no code is declared yet: \(add)" : "; declared codes are \(declared); \(add)"
    }

    private func isScalarLike(_ schema: Schema, allowArray: Bool) -> Bool {
        switch schema.kind {
        case .primitive(let primitive): return primitive != .any
        case .enumeration: return true
        case .array(let item): return allowArray && isScalarLike(item, allowArray: false)
        case .reference(let name):
            guard let declaration = types[name] else { return true }
            if case .reference = declaration.schema.kind { return true } // alias chains: checked where declared
            return isScalarLike(declaration.schema, allowArray: allowArray)
        case .map, .object, .union: return false
        }
    }

    /// The fields of an object schema, following references.
    private func fields(of schema: Schema) -> [Field]? {
        types.objectFields(of: schema)
    }

    // MARK: Service

    private mutating func check(_ service: Service) {
        let ids = Set(files.flatMap(\.endpoints).map(\.id))
        for reference in references {
            let pattern = reference.id
            let matches = ids.contains { EndpointPattern.matches(pattern, $0) }
            if !matches {
                error("\(reference.role) '\(pattern)' matches no declared endpoint\(NameSuggestion.hint(for: pattern, in: ids.sorted()))",
                      at: reference.location)
            }
        }
        if service.envelope != nil, service.code(service.validation.violationCode) == nil {
            error("the violation code \(service.validation.violationCode) is not declared in 'codes'", at: service.location)
        }
        for code in service.codes {
            if let data = code.data { checkReferences(in: data) }
        }
        if let body = service.errors.body { checkReferences(in: body) }
        for field in service.headers {
            checkReferences(in: field.schema)
            if !isScalarLike(field.schema, allowArray: false) {
                error("header '\(field.name)' must be a scalar or an enum", at: field.location)
            }
        }
    }

    // MARK: Types

    /// Reports every reference to an undeclared type, suggesting the nearest name;
    /// `parameters` are the type parameters of the generic being checked.
    private mutating func checkReferences(in schema: Schema, parameters: Set<String> = []) {
        switch schema.kind {
        case .reference(let name) where parameters.contains(name):
            break
        case .reference(let name):
            if let instance = GenericInstance(name: name) {
                checkInstance(instance, parameters: parameters, at: schema.location)
            } else if let declaration = types[name], declaration.isGeneric {
                error("'\(name)' is generic: write \(GenericInstance.name(name, declaration.parameters)) with \(Self.count(declaration.parameters.count, "type argument"))",
                      at: schema.location)
            } else if types[name] == nil {
                let candidates = types.values.filter { $0.instance == nil }.map(\.name) + Primitive.allCases.map(\.rawValue)
                error("unknown type '\(name)'\(NameSuggestion.hint(for: name, in: candidates.sorted()))", at: schema.location)
            }
        case .array(let item), .map(let item):
            checkReferences(in: item, parameters: parameters)
        case .object(let fields):
            if !parameters.isEmpty, let inline = fields.first(where: { Self.declaresInline($0.schema) }) {
                error("a generic type's members are named types, primitives and arrays or maps of them; name the type of '\(inline.name)'",
                      at: inline.location)
            }
            fields.forEach { checkReferences(in: $0.schema, parameters: parameters) }
        case .union(let union):
            check(union)
        case .primitive, .enumeration:
            break
        }
    }

    /// A use of a generic (`Page<Match>`): a declared generic, as many arguments as it has
    /// parameters, each a declared type (or a parameter of the generic being checked).
    private mutating func checkInstance(_ instance: GenericInstance, parameters: Set<String>, at location: SourceLocation) {
        guard let generic = types[instance.generic], generic.isGeneric else {
            let generics = types.values.filter(\.isGeneric).map(\.name).sorted()
            let known = types[instance.generic] != nil
            error(known ? "'\(instance.generic)' takes no type arguments" : "unknown generic type '\(instance.generic)'"
                  + NameSuggestion.hint(for: instance.generic, in: generics), at: location)
            return
        }
        guard generic.parameters.count == instance.arguments.count else {
            error("'\(instance.generic)' takes \(Self.count(generic.parameters.count, "type argument")), found \(instance.arguments.count)", at: location)
            return
        }
        for argument in instance.arguments where !parameters.contains(argument) && types[argument] == nil {
            let candidates = types.values.filter { !$0.isGeneric && $0.instance == nil }.map(\.name).sorted()
            error("unknown type '\(argument)' in '\(instance.name)'\(NameSuggestion.hint(for: argument, in: candidates))", at: location)
        }
    }

    /// An inline object or enum, which a generic cannot name for every instance.
    private static func declaresInline(_ schema: Schema) -> Bool {
        switch schema.kind {
        case .object(let fields): !fields.isEmpty
        case .enumeration, .union: true
        case .array(let item), .map(let item): declaresInline(item)
        case .primitive, .reference: false
        }
    }

    private static func count(_ number: Int, _ noun: String) -> String {
        "\(number) \(noun)\(number == 1 ? "" : "s")"
    }

    /// Each shape of a union is a declared object type that leaves the discriminator to the
    /// union. (A value cannot select two shapes: YAML refuses the duplicate key.)
    private mutating func check(_ union: Union) {
        for unionCase in union.cases {
            guard let declaration = types[unionCase.typeName] else {
                let candidates = types.keys.sorted()
                error("unknown type '\(unionCase.typeName)'\(NameSuggestion.hint(for: unionCase.typeName, in: candidates))", at: unionCase.location)
                continue
            }
            guard let fields = fields(of: declaration.schema) else {
                error("the shape of '\(unionCase.value)' must be an object type; '\(unionCase.typeName)' is \(NodeReader.kindName(declaration.schema.kind))",
                      at: unionCase.location)
                continue
            }
            if fields.contains(where: { $0.name == union.discriminator }) {
                error("'\(unionCase.typeName)' declares '\(union.discriminator)', the union's discriminator; leave it to the union",
                      at: unionCase.location)
            }
        }
    }

    /// Warns about named types no endpoint reaches, directly or through other types.
    private mutating func reportUnusedTypes() {
        var reached: Set<String> = []
        var pending: [Schema] = files.flatMap(\.endpoints).flatMap(\.schemas)
            + (service?.headers.map(\.schema) ?? []) + (service?.codes.compactMap(\.data) ?? []) + (service?.errors.body.map { [$0] } ?? [])
        while let schema = pending.popLast() {
            switch schema.kind {
            case .reference(let name):
                if let declaration = types[name], reached.insert(name).inserted {
                    pending.append(declaration.schema)
                    // An instance reaches its generic.
                    if let generic = declaration.instance?.generic { reached.insert(generic) }
                }
            case .array(let item), .map(let item):
                pending.append(item)
            case .object(let fields):
                pending += fields.map(\.schema)
            case .union(let union):
                pending += union.cases.map { Schema(.reference($0.typeName), location: $0.location) }
            case .primitive, .enumeration:
                break
            }
        }
        for declaration in files.flatMap(\.types) where !reached.contains(declaration.name) && declaration.instance == nil {
            diagnostics.append(.warning("type '\(declaration.name)' is declared but no endpoint uses it", at: declaration.location))
        }
    }
}
