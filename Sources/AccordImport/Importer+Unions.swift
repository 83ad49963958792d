import AccordJSON

extension Importer {
    /// `oneOf`/`anyOf`: `null` branches make the rest nullable; one branch left is that branch; object branches told
    /// apart by a discriminator (declared, or a member with a distinct constant in each) are a tagged union; anything
    /// else is 'any' with a warning, never silently the first branch.
    mutating func alternatives(_ spot: Spot, _ branches: Spot, hint: String, domain: String?) -> (SchemaShape, nullable: Bool) {
        var nullable = false
        var kept: [Spot] = []
        for branch in branches.items {
            if case .found(let target) = references.resolve(branch), Self.isNull(target) { nullable = true } else { kept.append(branch) }
        }
        if kept.isEmpty { return (.use(.any), nullable) }
        if kept.count > 1, let cases = constantBranches(kept) {
            // `oneOf: [{const: user, title: USER}, …]`: an enum written branch by branch.
            return (enumerationOfConstants(cases, spot), nullable)
        }
        if kept.count == 1 { return (.use(annotated(typeUse(kept[0], hint: hint, domain: domain), spot)), nullable) }
        // A union that turns out not to be one leaves nothing behind: the types declared on the way are taken back.
        let before = self
        if let union = taggedUnion(spot, kept, hint: hint, domain: domain) { return (.declared(union), nullable) }
        self = before
        let keyword = spot["oneOf"] != nil ? "oneOf" : "anyOf"
        log.warn("union-untyped", "'\(keyword)' of \(kept.count) schemas has no discriminator and no member with a distinct constant in each; "
                 + "imported as 'any' (never silently as its first branch)", at: branches)
        summary.schemasFreeForm += 1
        return (.use(annotated(.any, spot)), nullable)
    }

    /// The constant and title of each branch, when every branch is only a constant (`{const: x, title: X}` or a one-value `enum`).
    private mutating func constantBranches(_ branches: [Spot]) -> [(value: JSONValue, title: String?)]? {
        var cases: [(value: JSONValue, title: String?)] = []
        for branch in branches {
            guard branch["$ref"] == nil, case .found(let target) = references.resolve(branch) else { return nil }
            let value = target["const"]?.json ?? (target["enum"]?.items.count == 1 ? target["enum"]?.items.first?.json : nil)
            let others = target.members.filter { !["const", "enum", "title", "description", "type", "deprecated"].contains($0.key) && !$0.key.hasPrefix("x-") }
            guard let value, others.isEmpty else { return nil }
            cases.append((value, target["title"]?.text))
        }
        return cases
    }

    /// Constants as one enum: strings as a string enum, integers named by their branches' titles.
    private mutating func enumerationOfConstants(_ cases: [(value: JSONValue, title: String?)], _ spot: Spot) -> SchemaShape {
        var members: [JSONValue.Member] = []
        if let description = spot["description"]?.text { members.append(.init("description", .string(description))) }
        if cases.allSatisfy({ if case .string = $0.value { true } else { false } }) {
            members.append(.init("enum", .array(cases.map(\.value))))
            return .declared(.object(members))
        }
        guard cases.allSatisfy({ if case .int = $0.value { true } else { false } }) else {
            log.warn("enum-mixed", "constants of mixed kinds have no contract type; imported as 'any'", at: spot)
            summary.schemasFreeForm += 1
            return .use(.any)
        }
        var taken: Set<String> = []
        members.append(.init("enum", .object(cases.map { value, title in
            guard case .int(let number) = value else { return .init("0", .null) }
            let written = title.map { Names.parameter($0.lowercased()) } ?? (number < 0 ? "minus\(-number)" : "value\(number)")
            return .init(String(number), .string(Names.unique(written, in: &taken, separator: "_")))
        })))
        return .declared(.object(members))
    }

    static func isNull(_ spot: Spot) -> Bool {
        spot["type"]?.text == "null" || spot["const"]?.node.scalar?.resolved == .null && spot["const"] != nil
            || (spot["enum"]?.items.count == 1 && spot["enum"]?.items.first?.node.scalar?.resolved == .null)
    }

    /// A branch of a union: as written, its object (a `$ref` followed) and the reference's target.
    private struct Branch {
        var written: Spot
        var object: Spot
        var key: String?
        var properties: MergedObject
    }

    private mutating func taggedUnion(_ spot: Spot, _ written: [Spot], hint: String, domain: String?) -> JSONValue? {
        var branches: [Branch] = []
        for branch in written {
            guard case .found(let target) = references.resolve(branch), Self.isObjectLike(target) else { return nil }
            var merged = MergedObject()
            guard collectQuietly(target, into: &merged) else { return nil }
            branches.append(Branch(written: branch, object: target, key: branch["$ref"].flatMap { references.key(of: $0) }, properties: merged))
        }
        let declared = spot["discriminator"]?["propertyName"]?.text
        guard let property = declared ?? distinctConstantMember(branches) else { return nil }
        let mapping = discriminatorMapping(spot["discriminator"]?["mapping"])
        var cases: [JSONValue.Member] = []
        for branch in branches {
            let constant = branch.properties.properties.first { $0.0 == property }.flatMap { Self.constant($0.1) }
            let named = declared != nil ? branch.key.map { String($0.split(separator: "/").last ?? "") } : nil
            guard let value = branch.key.flatMap({ mapping[$0] }) ?? constant ?? named, !cases.contains(where: { $0.key == value }) else { return nil }
            let name = shape(branch, without: property, value: value, hint: hint, domain: domain)
            // A branch that looked like an object but is not one as declared (an object with its own oneOf) ends the union.
            guard let index = declarationIndex[name], declarations[index].body["fields"] != nil else { return nil }
            cases.append(.init(value, .string(name)))
        }
        var members: [JSONValue.Member] = []
        if let description = spot["description"]?.text { members.append(.init("description", .string(description))) }
        members += [.init("discriminator", .string(property)), .init("one_of", .object(cases))]
        return .object(members)
    }

    /// The member every branch fixes to a different string (`kind: {const: card}`), if there is one.
    private func distinctConstantMember(_ branches: [Branch]) -> String? {
        guard let first = branches.first else { return nil }
        return first.properties.properties.map(\.0).first { name in
            let values = branches.compactMap { branch in branch.properties.properties.first { $0.0 == name }.flatMap { Self.constant($0.1) } }
            return values.count == branches.count && Set(values).count == values.count
        }
    }

    /// The one string a member's schema admits (`const: x` or `enum: [x]`).
    private static func constant(_ spot: Spot) -> String? {
        if let value = spot["const"]?.string { return value }
        if let values = spot["enum"]?.items, values.count == 1 { return values[0].string }
        return nil
    }

    /// `discriminator.mapping` inverted: the canonical target of each reference to the value that selects it.
    private func discriminatorMapping(_ spot: Spot?) -> [String: String] {
        var result: [String: String] = [:]
        for (value, target) in spot?.members ?? [] {
            guard let text = target.text else { continue }
            if text.contains("#") || text.contains("/") || text.hasSuffix(".yaml") || text.hasSuffix(".json") {
                if let key = references.key(of: target) { result[key] = value }
            } else {
                // A bare schema name: the component of that name.
                result[SpecFiles.normalized(references.files.rootPath) + "#/components/schemas/" + text] = value
            }
        }
        return result
    }

    /// The object type of one case: the component itself when it does not declare the discriminator, else a type
    /// of its other members (the union owns the discriminator).
    private mutating func shape(_ branch: Branch, without property: String, value: String, hint: String, domain: String?) -> String {
        let declaresTag = branch.properties.properties.contains { $0.0 == property }
        if let key = branch.key, !declaresTag { return namedType(branch.object, target: key, domain: domain) }
        if let key = branch.key { mergedTargets.insert(key) }
        if branch.key == nil, let title = branch.object["title"]?.text, let component = matchingComponent(title, branch, without: property) {
            return component
        }
        let name = branch.key == nil ? (branch.object["title"]?.text.map(Names.typeName) ?? hint + Names.typeName(value)) : hint + Names.typeName(value)
        let fields = branch.properties.properties.filter { $0.0 != property }.map { name, spot in
            field(name, spot, required: branch.properties.required.contains(name), owner: hint + Names.typeName(value), domain: domain)
        }
        return declare(fieldsBody(fields, branch.object), named: name, domain: domain)
    }

    /// The component called `title` when its members are the branch's but the discriminator (as `accord openapi` writes unions).
    private mutating func matchingComponent(_ title: String, _ branch: Branch, without property: String) -> String? {
        guard let root = references.files.root(), let component = root["components"]?["schemas"]?[title] else { return nil }
        var merged = MergedObject()
        guard collectQuietly(component, into: &merged) else { return nil }
        let expected = Set(branch.properties.properties.map(\.0).filter { $0 != property })
        guard Set(merged.properties.map(\.0)) == expected else { return nil }
        return namedType(component, target: SpecFiles.normalized(component.file) + "#" + component.pointer, domain: nil)
    }

    /// `collect` without reporting: a union's branches are only looked at here; reporting happens when they are declared.
    private mutating func collectQuietly(_ spot: Spot, into merged: inout MergedObject) -> Bool {
        let saved = log
        defer { log = saved }
        var wrapper = MergedObject()
        let result = collect(spot, into: &wrapper)
        merged = wrapper
        return result
    }
}
