import AccordJSON

extension Importer {
    /// Path, query and header parameters (the path item's, overridden by the operation's of the same name and place).
    mutating func parameters(_ shared: [Spot], _ own: [Spot], renames: [String: String], hint: String, into draft: inout EndpointDraft) {
        var byKey: [String: Spot] = [:]
        var order: [String] = []
        for written in shared + own {
            guard case .found(let parameter) = resolveReporting(written), let name = parameter["name"]?.text, let place = parameter["in"]?.text else { continue }
            let key = place + "\u{0}" + name
            if byKey[key] == nil { order.append(key) }
            byKey[key] = parameter
        }
        var params: [JSONValue.Member] = []
        var query: [JSONValue.Member] = []
        var headers: [JSONValue.Member] = []
        for key in order {
            guard let parameter = byKey[key], let name = parameter["name"]?.text, let place = parameter["in"]?.text else { continue }
            guard let use = parameterType(parameter, name: name, place: place, hint: hint + Names.typeName(name), domain: draft.domain) else { continue }
            let optional = parameter["required"]?.bool != true
            if place == "header", service.headerNames.contains(name) {
                if service.headerTypes[name] == nil { service.headerTypes[name] = use.field(optional: optional) }
                continue
            }
            switch place {
            case "path": params.append(.init(renames[name] ?? Names.parameter(name), use.field(optional: false)))
            case "query": query.append(.init(name, use.field(optional: optional)))
            default: headers.append(.init(name, use.field(optional: optional)))
            }
            if let example = parameter["example"] ?? parameter["examples"] {
                log.warnOnce("parameter-example", subject: "", "parameter examples are not imported (the examples of bodies and answers are)", at: example)
            }
        }
        for name in declaredPathParameters(draft) where !params.contains(where: { $0.key == name }) {
            log.warnOnce("path-parameter-undeclared", subject: "", "path parameter '\(name)' has no 'parameters' entry; imported as a string",
                         at: draft.spot)
            params.append(.init(name, .string("string")))
        }
        if !params.isEmpty { draft.members.append(.init("params", .object(params))) }
        if !query.isEmpty { draft.members.append(.init("query", .object(query))) }
        if !headers.isEmpty { draft.members.append(.init("headers", .object(headers))) }
    }

    /// The type of one parameter, or nil (with a warning) when the contract cannot carry it.
    private mutating func parameterType(_ parameter: Spot, name: String, place: String, hint: String, domain: String) -> TypeUse? {
        switch place {
        case "cookie":
            log.warn("cookie-parameter", "cookie parameter '\(name)' is not imported: the contract has no cookies", at: parameter)
            return nil
        case "header" where ["accept", "content-type", "authorization"].contains(name.lowercased()):
            return nil  // OpenAPI says these are ignored: media types and auth say them.
        case "header" where name.lowercased() == service.apiKeyHeader?.lowercased():
            return nil  // the auth section carries it
        case "query" where name == service.apiKeyQuery:
            return nil
        case "header" where service.signingHeaders.contains(name.lowercased()):
            return nil  // the signing section implies it
        case "path", "query", "header": break
        default:
            log.warn("parameter-invalid", "'in' is path, query, header or cookie, found '\(place)'", at: parameter["in"] ?? parameter)
            return nil
        }
        guard let schema = parameter["schema"] else {
            log.warn("parameter-content", "parameter '\(name)' is described by 'content', not 'schema'; imported as a string", at: parameter)
            return TypeUse(expression: "string")
        }
        let target: Spot = if case .found(let found) = references.resolve(schema) { found } else { schema }
        let items: Spot? = target["items"].flatMap { if case .found(let found) = references.resolve($0) { found } else { nil } }
        if Self.isObjectLike(target) || items.map(Self.isObjectLike) == true {
            log.warn("parameter-object", "\(place) parameter '\(name)' is an object (style \(parameter["style"]?.text ?? "form")); the contract's "
                     + "parameters are scalars, enums and arrays of them, so it is imported as a string", at: schema)
            return TypeUse(expression: "string")
        }
        var use = typeUse(schema, hint: hint, domain: domain)
        if let description = parameter["description"]?.text, !use.attributes.contains(where: { $0.key == "description" }) {
            use.attributes.insert(.init("description", .string(description)), at: 0)
        }
        if parameter["deprecated"]?.bool == true { use.attributes.append(.init("deprecated", .bool(true))) }
        use.isNullable = false
        if use.expression.hasPrefix("{") || use.expression == "any" || isObjectType(use.expression) || use.expression.hasPrefix("[{")
            || use.expression.hasPrefix("[") && isObjectType(String(use.expression.dropFirst().dropLast())) {
            log.warn("parameter-object", "\(place) parameter '\(name)' is an object (style \(parameter["style"]?.text ?? "form")); the contract's "
                     + "parameters are scalars, enums and arrays of them, so it is imported as a string", at: schema)
            return TypeUse(expression: "string")
        }
        if place != "query", use.expression.hasPrefix("[") {
            log.warn("parameter-array", "\(place) parameter '\(name)' is an array; imported as a string (comma-separated on the wire)", at: schema)
            return TypeUse(expression: "string")
        }
        if place == "query", use.expression.hasPrefix("["), parameter["explode"]?.bool == false || parameter["style"].map({ $0.text != "form" }) == true {
            log.warn("parameter-style", "query parameter '\(name)' is sent as one comma-, space- or pipe-separated value; imported as repeated keys "
                     + "(style form, explode true)", at: parameter["style"] ?? parameter["explode"] ?? parameter)
        }
        return use
    }

    /// The `{name}`s of the draft's route.
    private func declaredPathParameters(_ draft: EndpointDraft) -> [String] {
        guard case .string(let route)? = draft.members.first(where: { $0.key == "route" })?.value else { return [] }
        return route.split(separator: "/").filter { $0.hasPrefix("{") }.map { String($0.dropFirst().dropLast()) }
    }

    /// Whether a named type is an object or a union (rather than an enum or an alias of a scalar).
    func isObjectType(_ name: String) -> Bool {
        guard let index = declarationIndex[name] else { return false }
        let body = declarations[index].body
        if case .string(let aliased)? = body["type"] { return aliased.hasPrefix("{") || aliased == "any" || isObjectType(aliased) }
        return body["fields"] != nil || body["one_of"] != nil
    }
}
