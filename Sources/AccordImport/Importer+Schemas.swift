import AccordContract
import AccordJSON

/// What a schema is, before it has a name: a type written in place, or something declared as a named type.
enum SchemaShape {
    case use(TypeUse)
    /// A named type's body: `{fields: …}`, `{enum: …}` or `{discriminator: …, one_of: …}`.
    case declared(JSONValue)
}

extension Importer {
    /// The contract type of the schema at `spot`. A `$ref` is the named type of its target; an inline
    /// object, enum or union is declared as a named type called `hint`, in `domain`'s file (nil: the service file).
    mutating func typeUse(_ spot: Spot, hint: String, domain: String?) -> TypeUse {
        // Schemas nested through `$ref`s have no depth limit of their own: past this one a hostile chain is cut.
        guard depth < Self.maxDepth else {
            log.error("schema-too-deep", "schemas nest more than \(Self.maxDepth) deep here; imported as 'any'", at: spot)
            return .any
        }
        depth += 1
        defer { depth -= 1 }
        if let referenceSpot = spot["$ref"] { return referenced(spot, referenceSpot, domain: domain) }
        // An inline schema reached twice (through a shared response or parameter) is one type.
        let place = SpecFiles.normalized(spot.file) + "#" + spot.pointer
        if let name = inlineNames[place] { return TypeUse(expression: name, isNullable: nullableTypes.contains(name)) }
        let (shape, nullable) = self.shape(spot, hint: hint, domain: domain)
        var use: TypeUse
        switch shape {
        case .use(let written): use = written
        case .declared(let body):
            // Named by where it is written inside a component, whoever reaches it first, so a document names it one way.
            let hint = Self.locationHint(spot) ?? hint
            if let pending = pendingDeclaration, pending.name == hint {
                // A component that only wraps this schema (`allOf: [{…}]`, `oneOf: [{…}, null]`) is this type, not an alias of it.
                pendingDeclaration = nil
                declarations[pending.index].body = body
                use = TypeUse(expression: hint)
            } else {
                use = TypeUse(expression: declare(body, named: hint, domain: domain))
            }
            inlineNames[place] = use.expression
            if nullable { nullableTypes.insert(use.expression) }
        }
        use.isNullable = use.isNullable || nullable
        return use
    }

    /// The named type a `$ref` names, with what is written beside it (a description, 3.0's `nullable`, `readOnly`).
    private mutating func referenced(_ spot: Spot, _ referenceSpot: Spot, domain: String?) -> TypeUse {
        let target: Spot
        switch references.resolve(spot) {
        case .found(let found): target = found
        case .broken(let diagnostic):
            log.add(diagnostic)
            return .any
        }
        guard let key = references.key(of: referenceSpot) else { return .any }
        var use = TypeUse(expression: namedType(target, target: key, domain: domain))
        use.isNullable = nullableTypes.contains(use.expression) || spot["nullable"]?.bool == true
        use.isOneWay = spot["readOnly"]?.bool == true || spot["writeOnly"]?.bool == true || oneWayTypes.contains(use.expression)
        if let description = spot["description"]?.text { use.attributes.append(.init("description", .string(description))) }
        if spot["deprecated"]?.bool == true { use.attributes.append(.init("deprecated", .bool(true))) }
        // 3.1 allows keywords beside `$ref`: a default at the place of use (the contract checks it against the type).
        if let value = spot["default"] {
            if value.json == .null {
                log.warn("default-invalid", "the default null is not a value of '\(use.expression)'; not imported", at: value)
            } else {
                use.attributes.append(.init("default", value.json))
            }
        }
        return use
    }

    /// `PetOwnerAddress` for the schema at `#/components/schemas/Pet/properties/owner/properties/address`: the component's
    /// name and the members on the way (`Item` for array items, `Value` for map values); nil outside the components.
    static func locationHint(_ spot: Spot) -> String? {
        guard spot.pointer.hasPrefix("/components/schemas/"), let tokens = References.tokens(of: spot.pointer), tokens.count > 3 else { return nil }
        var name = Names.typeName(tokens[2])
        var index = 3
        while index < tokens.count {
            switch tokens[index] {
            case "properties" where index + 1 < tokens.count:
                name += Names.typeName(tokens[index + 1])
                index += 2
            case "items": name += "Item"; index += 1
            case "additionalProperties": name += "Value"; index += 1
            case "allOf", "oneOf", "anyOf": index += 2
            default: index += 1
            }
        }
        return name
    }

    /// The name of the type declared for the schema `target` (declared on first use; a cycle meets the name already taken).
    mutating func namedType(_ target: Spot, target key: String, domain: String?) -> String {
        if let name = namesByTarget[key] {
            if let index = declarationIndex[name], declarations[index].domain != domain { declarations[index].domain = nil }
            return name
        }
        let base = target["title"]?.text.map(Names.typeName).flatMap { $0 == "Type" ? nil : $0 } ?? Self.name(ofTarget: key)
        let name = uniqueTypeName(base)
        namesByTarget[key] = name
        let index = reserveDeclaration(name, domain: domain)
        let outer = pendingDeclaration
        pendingDeclaration = (name, index)
        let (shape, nullable) = self.shape(target, hint: name, domain: domain)
        pendingDeclaration = outer
        if nullable { nullableTypes.insert(name) }
        if target["readOnly"]?.bool == true || target["writeOnly"]?.bool == true { oneWayTypes.insert(name) }
        switch shape {
        case .declared(let body): declarations[index].body = body
        case .use(let use) where use.expression == name:
            if let description = use.attributes.first(where: { $0.key == "description" }), case .object(var members) = declarations[index].body,
               !members.contains(where: { $0.key == "description" }) {
                members.insert(description, at: 0)
                declarations[index].body = .object(members)
            }
        case .use(let use):
            declarations[index].body = .object([.init("type", .string(use.expression))] + use.attributes)
            if use.expression.hasPrefix("any") || use.expression == "{string: any}" {
                summary.schemasFreeForm += 1
                summary.schemasTyped -= 1
            }
        }
        return name
    }

    /// A target's name: its pointer's last token (`#/components/schemas/Pet` → `Pet`), or for a whole file its name
    /// without the extension (`shapes/tree.yaml` → `Tree`).
    static func name(ofTarget key: String) -> String {
        let hash = key.lastIndex(of: "#") ?? key.endIndex
        let pointer = hash < key.endIndex ? key[key.index(after: hash)...] : ""
        if let token = pointer.split(separator: "/").last { return Names.typeName(String(token)) }
        let file = key[..<hash].split(separator: "/").last.map(String.init) ?? "Schema"
        return Names.typeName(file.split(separator: ".").first.map(String.init) ?? file)
    }

    /// Declares `body` as a new named type `name` (made unique) and returns the name taken.
    mutating func declare(_ body: JSONValue, named name: String, domain: String?) -> String {
        let unique = uniqueTypeName(name)
        let index = reserveDeclaration(unique, domain: domain)
        declarations[index].body = body
        return unique
    }

    private mutating func reserveDeclaration(_ name: String, domain: String?) -> Int {
        declarationIndex[name] = declarations.count
        declarations.append(Declaration(name: name, domain: domain))
        summary.schemasTyped += 1
        return declarations.count - 1
    }

    /// `name`, unless a type or a Swift name an app cannot shadow has it (`Error` → `ErrorModel`), then numbered.
    mutating func uniqueTypeName(_ name: String) -> String {
        let base = Service.SwiftNaming.reservedTypeNames.contains(name) ? name + "Model" : name
        return Names.unique(base, in: &takenTypeNames)
    }

    /// How deep schemas may nest (members of members, through `$ref`s and files) before the import stops following them.
    static let maxDepth = 100

    /// The schema's shape and whether it admits `null`, in every spelling: 3.0's `nullable`, a 3.1 type list with
    /// `"null"`, a `null` in `enum`, a `{type: 'null'}` branch of `oneOf` or `anyOf`.
    mutating func shape(_ spot: Spot, hint: String, domain: String?) -> (SchemaShape, nullable: Bool) {
        if spot.bool == true { return (.use(.any), false) }
        guard spot.isMapping else {
            log.warn("schema-invalid", "a schema is a mapping; found \(spot.node.kindDescription), imported as 'any'", at: spot)
            return (.use(.any), false)
        }
        var nullable = spot["nullable"]?.bool == true
        if nullable, !isVersion30 {
            log.warnOnce("nullable-keyword", subject: "", "'nullable' is OpenAPI 3.0; this 3.1 document's 'nullable: true' is read as admitting null",
                         at: spot["nullable"] ?? spot)
        }
        var types = spot["type"].map { $0.items.isEmpty ? [$0.text ?? ""] : $0.items.compactMap(\.text) } ?? []
        if types.contains("null") {
            nullable = true
            types.removeAll { $0 == "null" }
        }
        reportIgnoredKeywords(spot)
        if let branches = spot["allOf"] { return (mergedAllOf(spot, branches, hint: hint, domain: domain), nullable) }
        if let branches = spot["oneOf"] ?? spot["anyOf"] {
            let (shape, branchNullable) = alternatives(spot, branches, hint: hint, domain: domain)
            return (shape, nullable || branchNullable)
        }
        if spot["enum"] != nil || spot["const"] != nil {
            let (shape, enumNullable) = enumeration(spot, types: types, hint: hint)
            return (shape, nullable || enumNullable)
        }
        guard types.count <= 1 else {
            log.warn("type-union", "a value of types \(types.joined(separator: ", ")) has no contract type; imported as 'any'", at: spot["type"] ?? spot)
            summary.schemasFreeForm += 1
            return (.use(.any), nullable)
        }
        let type = types.first ?? inferredType(spot)
        switch type {
        case "object": return (object(spot, hint: hint, domain: domain), nullable)
        case "array": return (.use(array(spot, hint: hint, domain: domain)), nullable)
        case "string", "integer", "number", "boolean": return (.use(primitive(type, spot)), nullable)
        case "null": return (.use(.any), true)
        case "": return (.use(annotated(.any, spot)), nullable)
        default:
            log.warn("type-unknown", "'\(type)' is not a JSON Schema type; imported as 'any'", at: spot["type"] ?? spot)
            return (.use(.any), nullable)
        }
    }

    /// The type a schema without `type` has by its keywords (`properties` → object), or "" when it says nothing.
    private func inferredType(_ spot: Spot) -> String {
        if spot["properties"] != nil || spot["additionalProperties"] != nil || spot["required"] != nil { return "object" }
        if spot["items"] != nil || spot["prefixItems"] != nil { return "array" }
        if spot["minLength"] != nil || spot["maxLength"] != nil || spot["pattern"] != nil || spot["format"].map({ _ in true }) == true { return "string" }
        if spot["minimum"] != nil || spot["maximum"] != nil { return "number" }
        return ""
    }

    /// An array of its items' type; items with constraints become an alias type, since `[T]` names a type only.
    private mutating func array(_ spot: Spot, hint: String, domain: String?) -> TypeUse {
        if spot["prefixItems"] != nil {
            log.warn("tuple", "'prefixItems' (a tuple) has no contract type; its items are imported as 'any'", at: spot["prefixItems"] ?? spot)
        }
        var item = spot["items"].map { typeUse($0, hint: hint + "Item", domain: domain) } ?? .any
        if item.isNullable {
            log.warnOnce("nullable-item", subject: "", "array items that may be null are imported as not null (a contract array holds values)",
                         at: spot["items"] ?? spot)
        }
        if item.hasConstraints {
            item = TypeUse(expression: declare(item.position, named: hint + "Item", domain: domain))
        }
        var use = TypeUse(expression: "[\(item.expression)]")
        use.attributes = counts(spot, minimum: "minItems", maximum: "maxItems", into: ("min_items", "max_items"))
        if spot["uniqueItems"]?.bool == true {
            log.warnOnce("unique-items", subject: "", "'uniqueItems' is not checked by the contract; imported as a plain array", at: spot["uniqueItems"] ?? spot)
        }
        return annotated(use, spot)
    }

    /// `minLength`-like counts as contract keys, when they are non-negative integers.
    func counts(_ spot: Spot, minimum: String, maximum: String, into keys: (String, String)) -> [JSONValue.Member] {
        var members: [JSONValue.Member] = []
        if let value = spot[minimum]?.int, value >= 0 { members.append(.init(keys.0, .int(value))) }
        if let value = spot[maximum]?.int, value >= 0 { members.append(.init(keys.1, .int(value))) }
        return members
    }

    /// `use` with the schema's description, deprecation and default (a default that does not fit is reported instead).
    mutating func annotated(_ use: TypeUse, _ spot: Spot) -> TypeUse {
        var use = use
        if let description = spot["description"]?.text ?? spot["title"]?.text { use.attributes.append(.init("description", .string(description))) }
        if spot["deprecated"]?.bool == true { use.attributes.append(.init("deprecated", .bool(true))) }
        if let value = spot["default"] {
            if Self.fits(value.json, use.expression) {
                use.attributes.append(.init("default", value.json))
            } else {
                log.warn("default-invalid", "the default \(value.json.summary) does not fit type '\(use.expression)'; not imported", at: value)
            }
        }
        use.isOneWay = spot["readOnly"]?.bool == true || spot["writeOnly"]?.bool == true
        return use
    }

    /// Whether a default is a value of a type expression (named types are checked when the contract loads).
    static func fits(_ value: JSONValue, _ expression: String) -> Bool {
        switch (expression, value) {
        case ("string", .string), ("date-time", .string), ("date", .string), ("url", .string), ("decimal", .string), ("int64", .int),
             ("int", .int), ("bool", .bool), ("double", .int), ("double", .double), ("any", _): true
        case (_, .string), (_, .int): expression.first?.isUppercase == true
        case (_, .array): expression.hasPrefix("[")
        case (_, .object): expression.hasPrefix("{")
        default: false
        }
    }
}
