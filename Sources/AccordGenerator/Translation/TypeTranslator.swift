import AccordContract
import AccordDiagnostics

/// Translates contract schemas into Swift type names, collecting the inline objects and
/// enums they need as nested declarations.
struct TypeTranslator {
    let contract: Contract
    let naming: Naming
    /// The types that hold themselves by value, whose closing members are written `@AccordIndirect`.
    let cycles: ValueCycles
    /// The body type of each streaming endpoint and its toggle member (`stream`), which
    /// the initializer defaults to `false`: the stream function sets it, a plain call
    /// leaves it off, and no caller has to spell it.
    private let streamToggles: [String: String]

    init(contract: Contract) {
        self.contract = contract
        let naming = Naming(contract: contract)
        self.naming = naming
        cycles = ValueCycles(types: contract.types)
        var toggles: [String: String] = [:]
        for endpoint in contract.endpoints {
            guard let toggle = endpoint.stream?.toggle, let body = endpoint.body else { continue }
            if case .reference(let name) = body.kind { toggles[name] = toggle } else { toggles[naming.endpointType(endpoint.id) + "Request"] = toggle }
        }
        streamToggles = toggles
    }

    /// The Swift type for `schema`; inline objects and enums become declarations named
    /// `suggestedName` and are appended to `nested`. `owner` is the named type the schema is
    /// written in, if any: where its members close a cycle they are kept on the heap.
    func type(for schema: Schema, suggestedName: String, file: String, owner: String? = nil, nested: inout [Declaration]) -> String {
        switch schema.kind {
        case .primitive(let primitive):
            return Self.swiftName(primitive)
        case .reference(let name):
            return name
        case .array(let item):
            return "[" + type(for: item, suggestedName: Self.singular(suggestedName), file: file, owner: owner, nested: &nested) + "]"
        case .map(let value):
            return "[String: " + type(for: value, suggestedName: suggestedName + "Value", file: file, owner: owner, nested: &nested) + "]"
        case .object(let fields):
            if fields.isEmpty { return "AccordEmpty" }
            nested.append(.structure(structure(named: suggestedName, fields: fields, documentation: documentation(for: schema, file: file),
                                               file: file, owner: owner)))
            return suggestedName
        case .enumeration(let cases):
            nested.append(.enumeration(enumeration(named: suggestedName, cases: cases, documentation: documentation(for: schema, file: file))))
            return suggestedName
        case .union(let union):
            nested.append(.union(taggedUnion(named: suggestedName, union: union, documentation: documentation(for: schema, file: file), owner: owner)))
            return suggestedName
        }
    }

    /// The declaration of a named contract type.
    func declaration(for declaration: TypeDeclaration) -> Declaration {
        let file = Self.fileName(declaration.location.file)
        let docs = Declaration.Documentation(summary: declaration.schema.description,
                                             remark: "`\(declaration.name)` in \(file)")
        switch declaration.schema.kind {
        case .object(let fields):
            var structure = structure(named: declaration.name, fields: fields, documentation: docs, file: file, owner: declaration.name)
            structure.genericParameters = declaration.parameters
            return .structure(structure)
        case .enumeration(let cases):
            return .enumeration(enumeration(named: declaration.name, cases: cases, documentation: docs))
        case .union(let union):
            return .union(taggedUnion(named: declaration.name, union: union, documentation: docs, owner: declaration.name))
        default:
            var nested: [Declaration] = []
            let target = type(for: declaration.schema, suggestedName: declaration.name + "Value", file: file, owner: declaration.name, nested: &nested)
            return nested.first ?? .alias(name: declaration.name, target: target, documentation: docs)
        }
    }

    func structure(named name: String, fields: [Field], documentation: Declaration.Documentation, file: String,
                   owner: String? = nil) -> Declaration.Structure {
        var nested: [Declaration] = []
        let names = naming.memberNames(fields)
        let properties = zip(fields, names).map { field, swiftName -> Declaration.Property in
            let nestedName = naming.nestedTypeName(of: field, member: swiftName, in: name)
            let swiftType = type(for: field.schema, suggestedName: nestedName, file: file, owner: owner, nested: &nested)
            let isToggle = streamToggles[name] == field.name && field.schema.kind == .primitive(.bool) && !field.isOptional
            let closesCycle = if case .reference(let target) = field.schema.kind, let owner { cycles.isIndirect(owner: owner, target: target) }
                else { false }
            return Declaration.Property(wireName: field.name, swiftName: swiftName.name, type: swiftType,
                                        defaultValue: isToggle ? "false" : nil,
                                        isOptional: field.isOptional || field.isNullable, documentation: field.schema.description,
                                        isDeprecated: field.schema.isDeprecated, isIndirect: closesCycle)
        }
        let renames = zip(fields, names).compactMap { field, name in
            Self.renameWarning(of: "field '\(field.name)'", as: "property", name, reserved: (Naming.reservedMemberNames, "Swift reserves the member name"),
                               at: field.location)
        }
        return Declaration.Structure(name: name, properties: properties, nested: nested, documentation: documentation, renames: renames)
    }

    func enumeration(named name: String, cases: EnumCases, documentation: Declaration.Documentation) -> Declaration.Enumeration {
        let names = naming.caseNames(cases.cases.map(\.name))
        let renames = zip(cases.cases, names).compactMap { item, name in
            Self.renameWarning(of: "enum value '\(item.name)'", as: "case", name, reserved: (Naming.reservedCaseNames, "every open enum has a member"),
                               at: item.location)
        }
        return Declaration.Enumeration(name: name, cases: zip(names, cases.cases).map { ($0.name, $1.value) },
                                       isIntegral: cases.isIntegral, documentation: documentation, renames: renames)
    }

    func taggedUnion(named name: String, union: Union, documentation: Declaration.Documentation, owner: String? = nil) -> Declaration.TaggedUnion {
        let names = naming.caseNames(union.cases.map { naming.property($0.value) })
        let closesCycle = owner.map { owner in union.cases.contains { cycles.isIndirect(owner: owner, target: $0.typeName) } } ?? false
        let renames = zip(union.cases, names).compactMap { item, name in
            Self.renameWarning(of: "'\(union.discriminator)' value '\(item.value)'", as: "case", name,
                               reserved: (Naming.reservedCaseNames, "every tagged union has a member"), at: item.location)
        }
        return Declaration.TaggedUnion(name: name, discriminator: union.discriminator,
                                       cases: zip(names, union.cases).map { ($0.name, $1.value, $1.typeName) },
                                       documentation: documentation, isIndirect: closesCycle, renames: renames)
    }

    /// A warning that `what` is the `role` (`case`, `property`) `name` in the generated Swift
    /// although it would naturally be another (``Naming/unique(_:reserved:)``), or nil when it
    /// kept its natural name. `reserved` are the names it may not have, and the words that say
    /// why before the name (`every open enum has a member`).
    static func renameWarning(of what: String, as role: String, _ name: (name: String, renamedFrom: String?),
                              reserved: (names: Set<String>, why: String), at location: SourceLocation) -> Diagnostic? {
        guard let natural = name.renamedFrom else { return nil }
        let why = reserved.names.contains(natural) ? "\(reserved.why) '\(natural)'" : "'\(natural)' is taken"
        return .warning("\(what) is the \(role) '\(Naming.bare(name.name))' in the generated Swift: \(why)", at: location)
    }

    private func documentation(for schema: Schema, file: String) -> Declaration.Documentation {
        Declaration.Documentation(summary: schema.description, remark: "inline in \(file)")
    }

    static func swiftName(_ primitive: Primitive) -> String {
        switch primitive {
        case .string: "String"
        case .int: "Int"
        case .int64: "Int64"
        case .bool: "Bool"
        case .double: "Double"
        case .decimal: "AccordDecimal"
        case .dateTime: "AccordDateTime"
        case .date: "AccordDate"
        case .url: "URL"
        case .any: "AccordJSON"
        }
    }

    /// `items` → `Item`, `Replies` → `Reply`: the name of one element of an array.
    static func singular(_ name: String) -> String {
        if name.hasSuffix("ies") { return String(name.dropLast(3)) + "y" }
        if name.hasSuffix("s") && !name.hasSuffix("ss") { return String(name.dropLast()) }
        return name + "Item"
    }

    /// The contract file's name, without directories, so output is the same on every machine.
    static func fileName(_ path: String) -> String {
        path.split(separator: "/").last.map(String.init) ?? path
    }
}
