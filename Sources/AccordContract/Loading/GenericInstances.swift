import AccordDiagnostics

/// Declares the instances of generic types the contract uses (`Page<Match>`): each is
/// the generic's schema with its parameters replaced by the arguments. Uses whose
/// generic is unknown or takes another number of arguments are left to the checker,
/// which reports them where they are written.
enum GenericInstances {
    /// Instances inside instances are declared too, to this depth.
    static let maxRounds = 16

    static func declare(in files: [DomainFile], service: Service?) -> [TypeDeclaration] {
        let generics = Dictionary(files.flatMap(\.types).filter(\.isGeneric).map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        guard !generics.isEmpty else { return [] }
        var pending: [Schema] = files.flatMap(\.types).filter { !$0.isGeneric }.map(\.schema) + files.flatMap(\.endpoints).flatMap(\.schemas)
            + (service?.headers.map(\.schema) ?? []) + (service?.codes.compactMap(\.data) ?? [])
        var declared: [String: TypeDeclaration] = [:]
        for _ in 0..<maxRounds where !pending.isEmpty {
            var next: [Schema] = []
            for name in Set(pending.flatMap(references)) where declared[name] == nil {
                guard let instance = GenericInstance(name: name), let generic = generics[instance.generic],
                      generic.parameters.count == instance.arguments.count else { continue }
                let replacements = Dictionary(uniqueKeysWithValues: zip(generic.parameters, instance.arguments))
                let schema = substitute(generic.schema, replacements)
                declared[name] = TypeDeclaration(name: name, domain: generic.domain, schema: schema, location: generic.location, instance: instance)
                next.append(schema)
            }
            pending = next
        }
        return declared.values.sorted { $0.name < $1.name }
    }

    /// Every type name `schema` refers to, nested ones included.
    static func references(_ schema: Schema) -> [String] {
        switch schema.kind {
        case .reference(let name): [name]
        case .array(let item), .map(let item): references(item)
        case .object(let fields): fields.flatMap { references($0.schema) }
        case .union(let union): union.cases.map(\.typeName)
        case .primitive, .enumeration: []
        }
    }

    /// `schema` with each parameter named in `replacements` replaced by its argument.
    static func substitute(_ schema: Schema, _ replacements: [String: String]) -> Schema {
        var copy = schema
        switch schema.kind {
        case .reference(let name):
            if let argument = replacements[name] {
                copy.kind = .reference(argument)
            } else if let instance = GenericInstance(name: name) {
                copy.kind = .reference(GenericInstance.name(instance.generic, instance.arguments.map { replacements[$0] ?? $0 }))
            }
        case .array(let item): copy.kind = .array(substitute(item, replacements))
        case .map(let value): copy.kind = .map(substitute(value, replacements))
        case .object(let fields):
            copy.kind = .object(fields.map { field in
                var field = field
                field.schema = substitute(field.schema, replacements)
                return field
            })
        case .union(var union):
            union.cases = union.cases.map { unionCase in
                var unionCase = unionCase
                unionCase.typeName = replacements[unionCase.typeName] ?? unionCase.typeName
                return unionCase
            }
            copy.kind = .union(union)
        case .primitive, .enumeration: break
        }
        return copy
    }
}
