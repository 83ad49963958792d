import AccordContract
import AccordDiagnostics
import AccordJSON
import AccordYAML

/// Loads `mocks/collections/*.yaml`, one collection per file, and checks each against
/// the contract: the type exists and is an object, the key is one of its required
/// string, integer or enum members, every seed fits the type (template holes excepted) and
/// no two literal seeds share a key.
///
/// ```yaml
/// # mocks/collections/signals.yaml
/// description: Signals the users sent.
/// type: Signal
/// key: id
/// limit: 1000
/// seed:
///   - {id: sg_1, content: 周末爬山, created_at: '{{now - 2h}}', …}
/// ```
public struct CollectionLoader: Sendable {
    public let contract: Contract
    private let values: TemplatedValues

    public init(contract: Contract) {
        self.contract = contract
        values = TemplatedValues(contract: contract)
    }

    package static let keys = MocksKeys.collection.names

    /// Every collection in `directory`, by name, with the problems found. A missing
    /// directory has none.
    public func load(directory: String) -> ([String: CollectionDefinition], [Diagnostic]) {
        NamedDocuments.load(directory: directory) { name, root, reader in collection(name, root, reader: &reader) }
    }

    private func collection(_ name: String, _ root: Node, reader: inout NodeReader) -> CollectionDefinition? {
        let what = "collection '\(name)'"
        guard let pairs = reader.mapping(root, "a collection") else { return nil }
        reader.checkKeys(pairs, allowed: Self.keys, in: "a collection")
        guard let typeNode = root["type"], let typeName = reader.text(typeNode, "'type'") else {
            reader.error("\(what) needs a 'type': the contract type of its records", at: root)
            return nil
        }
        guard let declaration = contract.types[typeName] else {
            reader.error("\(what): unknown type '\(typeName)'\(NameSuggestion.hint(for: typeName, in: contract.types.keys.sorted()))", at: typeNode)
            return nil
        }
        guard case .object(let fields) = declaration.schema.kind else {
            reader.error("\(what): type '\(typeName)' is not an object type; records need members", at: typeNode)
            return nil
        }
        guard let keyNode = root["key"], let key = reader.text(keyNode, "'key'") else {
            reader.error("\(what) needs a 'key': the member that identifies a record", at: root)
            return nil
        }
        guard let field = fields.first(where: { $0.name == key }) else {
            reader.error("\(what): '\(typeName)' has no member '\(key)'\(NameSuggestion.hint(for: key, in: fields.map(\.name)))", at: keyNode)
            return nil
        }
        let isKeyKind = switch contract.resolvedKind(of: field.schema) {
        case .primitive(.string), .primitive(.int), .primitive(.int64), .enumeration: true
        default: false
        }
        guard !field.isOptional, !field.isNullable, isKeyKind else {
            reader.error("\(what): the key '\(key)' must be a required string, int or enum member of '\(typeName)'", at: keyNode)
            return nil
        }
        var limit = CollectionDefinition.defaultLimit
        if let limitNode = root["limit"], let value = reader.int(limitNode, "'limit'") {
            if (1...CollectionDefinition.maxLimit).contains(value) {
                limit = value
            } else {
                reader.error("\(what): 'limit' takes a number of records from 1 to \(CollectionDefinition.maxLimit), found \(value)", at: limitNode)
            }
        }
        let seeds = self.seeds(root["seed"], of: what, typeName: typeName, declaration: declaration, key: key, limit: limit, root: root,
                               reader: &reader)
        return CollectionDefinition(name: name, description: root["description"].flatMap { reader.text($0, "'description'") }, typeName: typeName,
                                    key: key, limit: limit, seeds: seeds, location: reader.location(root),
                                    shape: TypeShape.of(typeName, in: contract))
    }

    /// The collection's `seed` records, each checked against its type, their keys unique.
    private func seeds(_ seedNode: Node?, of what: String, typeName: String, declaration: TypeDeclaration, key: String, limit: Int, root: Node,
                       reader: inout NodeReader) -> [TemplatedJSON] {
        var seeds: [TemplatedJSON] = []
        var seenKeys: [JSONValue: SourceLocation] = [:]
        let seedNodes = seedNode.flatMap { reader.sequence($0, "'seed'") } ?? []
        if seedNodes.count > limit {
            reader.error("\(what): \(seedNodes.count) seed records, more than its 'limit' of \(limit)", at: seedNode ?? root)
        }
        let schema = Schema(.reference(typeName), location: declaration.location)
        for (index, node) in seedNodes.enumerated() {
            let sourced = reader.json(node)
            values.check(sourced, against: schema, what: "\(what) seed \(index)", reader: &reader)
            if let value = sourced.value[key], !Self.isTemplated(value) {
                if let first = seenKeys[value] {
                    reader.error("\(what) seed \(index): its \(key) \(JSONWriter.string(value)) is the \(key) of an earlier seed (at \(first))",
                                 at: sourced.location(of: "/\(key.jsonPointerEscaped)") ?? reader.location(of: sourced))
                } else {
                    seenKeys[value] = sourced.location(of: "/\(key.jsonPointerEscaped)") ?? reader.location(of: sourced)
                }
            }
            if let compiled = try? TemplatedJSON(sourced.value) { seeds.append(compiled) }
        }
        return seeds
    }

    private static func isTemplated(_ value: JSONValue) -> Bool {
        if case .string(let text) = value { return text.contains("{{") }
        return false
    }
}
