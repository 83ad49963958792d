import AccordJSON

extension Importer {
    /// An object with `properties` is a named type; one with only `additionalProperties` a map; one with neither free-form.
    mutating func object(_ spot: Spot, hint: String, domain: String?) -> SchemaShape {
        let properties = spot["properties"]?.members ?? []
        let additional = spot["additionalProperties"]
        if properties.isEmpty {
            if spot["patternProperties"] != nil {
                log.warn("pattern-properties", "'patternProperties' has no contract type; imported as a map of 'any'", at: spot["patternProperties"] ?? spot)
            }
            guard let additional, additional.bool != true, additional.bool != false else {
                // `properties: {}` or `additionalProperties: false`: an object with no members.
                if additional?.bool == false || additional == nil && spot["properties"] != nil { return .declared(fieldsBody([], spot)) }
                return .use(annotated(TypeUse(expression: "{string: any}"), spot))
            }
            var value = typeUse(additional, hint: hint + "Value", domain: domain)
            if value.hasConstraints { value = TypeUse(expression: declare(value.position, named: hint + "Value", domain: domain)) }
            return .use(annotated(TypeUse(expression: "{string: \(value.expression)}"), spot))
        }
        if let additional, additional.bool != false {
            log.warnOnce("extra-members", subject: "", "an object with both 'properties' and 'additionalProperties' is imported with its properties; "
                         + "other members are let through unchecked", at: additional)
        }
        let required = Set((spot["required"]?.items ?? []).compactMap(\.text))
        let fields = properties.map { name, value in (name, value, required.contains(name)) }
        return .declared(fieldsBody(fields.map { field($0.0, $0.1, required: $0.2, owner: hint, domain: domain) }, spot))
    }

    /// One member of an object type: `readOnly` and `writeOnly` members are optional, since one type serves requests and answers.
    mutating func field(_ name: String, _ spot: Spot, required: Bool, owner: String, domain: String?) -> JSONValue.Member {
        let use = typeUse(spot, hint: owner + Names.typeName(name), domain: domain)
        if required, use.isOneWay {
            log.warnOnce("one-way-member", subject: "", "required 'readOnly'/'writeOnly' members are imported as optional (one contract type serves "
                         + "requests and answers)", at: spot)
        }
        return .init(name, use.field(optional: !required || use.isOneWay))
    }

    /// `{description, fields}` of an object type.
    func fieldsBody(_ fields: [JSONValue.Member], _ spot: Spot) -> JSONValue {
        var members: [JSONValue.Member] = []
        if let description = spot["description"]?.text { members.append(.init("description", .string(description))) }
        if spot["deprecated"]?.bool == true { members.append(.init("deprecated", .bool(true))) }
        members.append(.init("fields", .object(fields)))
        return .object(members)
    }

    /// `allOf` merged into one object: every branch's members and required lists (a branch that is a `$ref` is
    /// followed). One typed branch beside annotations is that branch; branches that are not all objects are 'any'.
    mutating func mergedAllOf(_ spot: Spot, _ branches: Spot, hint: String, domain: String?) -> SchemaShape {
        // `allOf: [{$ref: X}]` beside annotations (a description, `nullable`) is X itself.
        let typed = branches.items.filter { !Self.isAnnotation($0) }
        if typed.count == 1, typed[0]["$ref"] != nil, spot["properties"] == nil {
            return .use(annotated(typeUse(typed[0], hint: hint, domain: domain), spot))
        }
        var collected = MergedObject()
        guard collect(spot, into: &collected) else { return .use(.any) }
        if collected.properties.isEmpty, collected.others.count == 1, let only = collected.others.first {
            return .use(annotated(typeUse(only, hint: hint, domain: domain), spot))
        }
        guard collected.others.isEmpty else {
            log.warn("allof-mixed", "'allOf' joins objects with schemas that are not objects; imported as 'any'", at: branches)
            summary.schemasFreeForm += 1
            return .use(.any)
        }
        let fields = collected.properties.map { name, value in
            field(name, value, required: collected.required.contains(name), owner: hint, domain: domain)
        }
        return .declared(fieldsBody(fields, spot))
    }

    /// What the branches of an `allOf` declare together.
    struct MergedObject {
        var properties: [(String, Spot)] = []
        var required: Set<String> = []
        /// Branches that are neither objects nor annotations.
        var others: [Spot] = []
    }

    /// Adds `spot` (and through its `allOf`, every branch) to `merged`; false when a `$ref` is broken or cycles through `allOf`.
    mutating func collect(_ spot: Spot, into merged: inout MergedObject) -> Bool {
        for (name, value) in spot["properties"]?.members ?? [] {
            if let index = merged.properties.firstIndex(where: { $0.0 == name }) { merged.properties[index].1 = value } else { merged.properties.append((name, value)) }
        }
        merged.required.formUnion((spot["required"]?.items ?? []).compactMap(\.text))
        for branch in spot["allOf"]?.items ?? [] {
            guard let reference = branch["$ref"] else {
                if Self.isObjectLike(branch) || Self.isAnnotation(branch) {
                    guard collect(branch, into: &merged) else { return false }
                } else {
                    merged.others.append(branch)
                }
                continue
            }
            guard case .found(let target) = references.resolve(branch), let key = references.key(of: reference) else {
                if case .broken(let diagnostic) = references.resolve(branch) { log.add(diagnostic) }
                return false
            }
            guard !merging.contains(key) else {
                log.error("allof-cycle", "'allOf' reaches '\(reference.text ?? "")' again: a type cannot contain itself; imported as 'any'", at: reference)
                return false
            }
            guard Self.isObjectLike(target) else {
                merged.others.append(branch)
                continue
            }
            merging.insert(key)
            mergedTargets.insert(key)
            defer { merging.remove(key) }
            guard collect(target, into: &merged) else { return false }
        }
        return true
    }

    static func isObjectLike(_ spot: Spot) -> Bool {
        spot["properties"] != nil || spot["allOf"] != nil || spot["type"]?.text == "object" && spot["additionalProperties"] == nil
    }

    /// A branch that only says something about the whole (`required`, a description, `nullable`).
    static func isAnnotation(_ spot: Spot) -> Bool {
        spot.members.allSatisfy { ["required", "description", "title", "nullable", "deprecated", "readOnly", "writeOnly", "example", "examples",
                                   "discriminator", "xml", "externalDocs"].contains($0.key) || $0.key.hasPrefix("x-") }
    }

    /// Keywords the contract has no place for, one warning per keyword and document.
    static let ignoredKeywords: [String: String] = [
            "not": "'not' is not imported; the value is checked without it",
            "multipleOf": "'multipleOf' is not checked by the contract; not imported",
            "minProperties": "'minProperties' is not checked by the contract; not imported",
            "maxProperties": "'maxProperties' is not checked by the contract; not imported",
            "if": "'if'/'then'/'else' is not imported",
            "dependentRequired": "'dependentRequired' is not imported",
            "dependentSchemas": "'dependentSchemas' is not imported",
            "propertyNames": "'propertyNames' is not imported",
            "contains": "'contains' is not imported",
            "unevaluatedProperties": "'unevaluatedProperties' is not imported",
            "example": "schema examples are not imported (operation examples are)",
            "examples": "schema examples are not imported (operation examples are)",
            "xml": "'xml' is not imported: the contract carries JSON",
    ]

    mutating func reportIgnoredKeywords(_ spot: Spot) {
        for (key, value) in spot.members {
            guard let message = Self.ignoredKeywords[key] else { continue }
            let id = key == "examples" ? "schema-example" : key == "example" ? "schema-example" : "keyword-" + key.lowercased()
            log.warnOnce(id, subject: "", message, at: value)
        }
    }
}
