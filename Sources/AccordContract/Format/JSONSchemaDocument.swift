import AccordJSON

/// A JSON Schema (draft 2020-12) made from key tables, for editors (the YAML language
/// server completes keys from it and flags unknown ones) and `check-jsonschema`.
///
/// Alternatives are written as `if`/`then`/`else` on what tells them apart (the JSON
/// type, a required key), never as `anyOf`: a validator then descends into the one that
/// applies and reports each mistake where it is, as the loader does, instead of one
/// "valid under none" at the top.
public struct JSONSchemaDocument: Sendable {
    public var id: String
    public var title: String
    public var description: String
    /// The tables, each one `$defs` entry; a table refers to another by name.
    public var tables: [KeyTable]
    /// The root: which table a whole file is, told apart by a key it must have.
    public var root: [(requiredKey: String, table: String)]
    /// The table of a file that has none of the root's keys.
    public var fallback: String
    /// Extra `$defs` entries made in code (a contract's type positions).
    public var definitions: [(name: String, schema: JSONValue)] = []
    /// Members added to a table's entry (rules across its keys), by table name.
    public var additions: [String: [JSONValue.Member]] = [:]

    public init(id: String, title: String, description: String, tables: [KeyTable], root: [(requiredKey: String, table: String)], fallback: String) {
        self.id = id
        self.title = title
        self.description = description
        self.tables = tables
        self.root = root
        self.fallback = fallback
    }

    /// The document, keys in a stable order.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("$schema", .string("https://json-schema.org/draft/2020-12/schema")), .init("$id", .string(id)),
            .init("title", .string(title)), .init("description", .string(description)),
        ]
        let alternatives = root.map { (Optional(JSONValue.object([.init("type", .string("object")), .init("required", .array([.string($0.requiredKey)]))])),
                                       Self.reference(to: $0.table)) }
        if case .object(let choice) = Self.choice(alternatives + [(nil, Self.reference(to: fallback))]) { members += choice }
        let defs = tables.map { JSONValue.Member($0.name, schema(of: $0)) } + definitions.map { .init($0.name, $0.schema) }
        members.append(.init("$defs", .object(defs)))
        return .object(members)
    }

    public static func reference(to name: String) -> JSONValue { .object([.init("$ref", .string("#/$defs/\(name)"))]) }

    /// The first alternative whose condition holds, else the next; the last is the rest.
    public static func choice(_ alternatives: [(condition: JSONValue?, schema: JSONValue)]) -> JSONValue {
        guard let first = alternatives.first else { return .object([]) }
        guard alternatives.count > 1, let condition = first.condition else { return first.schema }
        return .object([.init("if", condition), .init("then", first.schema), .init("else", choice(Array(alternatives.dropFirst())))])
    }

    /// A table as a closed object: its keys' schemas, `required`, nothing else allowed.
    public func schema(of table: KeyTable) -> JSONValue {
        var members: [JSONValue.Member] = [.init("type", .string("object")), .init("description", .string(table.description))]
        members.append(.init("properties", .object(table.keys.map { key in
            guard case .object(let value) = schema(of: key.value) else { return .init(key.name, schema(of: key.value)) }
            return .init(key.name, .object([.init("description", .string(key.description))] + value))
        })))
        if !table.required.isEmpty { members.append(.init("required", .array(table.required.map { .string($0) }))) }
        members.append(.init("additionalProperties", .bool(false)))
        return .object(members + (additions[table.name] ?? []))
    }

    /// A value's schema.
    public func schema(of value: KeyTable.Value) -> JSONValue {
        switch value {
        case .text: return Self.type("string")
        case .integer: return Self.type("integer")
        case .number: return Self.type("number")
        case .boolean: return Self.type("boolean")
        case .scalar: return .object([.init("type", .array(["string", "number", "boolean", "null"].map { .string($0) }))])
        case .textOrNumber: return .object([.init("type", .array([.string("string"), .string("number")]))])
        case .words(let words): return .object([.init("enum", .array(words.map { .string($0) }))])
        case .anything: return .object([])
        case .list(let item): return .object([.init("type", .string("array")), .init("items", schema(of: item))])
        case .map(let item): return .object([.init("type", .string("object")), .init("additionalProperties", schema(of: item))])
        case .table(let name): return Self.reference(to: name)
        case .type: return Self.reference(to: "type")
        case .either(let values): return Self.choice(values.map { (condition(of: $0), schema(of: $0)) })
        }
    }

    static func type(_ name: String) -> JSONValue { .object([.init("type", .string(name))]) }

    /// What tells `value` from the other alternatives of an `either`: its JSON type, and
    /// for a table the words its required keys must be (`type: file`); nil for a type
    /// position, which is written last.
    private func condition(of value: KeyTable.Value) -> JSONValue? {
        switch value {
        case .text, .words: return Self.type("string")
        case .integer: return Self.type("integer")
        case .number, .textOrNumber: return Self.type("number")
        case .boolean: return Self.type("boolean")
        case .list: return Self.type("array")
        case .map: return Self.type("object")
        case .table(let name):
            guard let table = tables.first(where: { $0.name == name }) else { return Self.type("object") }
            let marks = table.keys.compactMap { key -> JSONValue.Member? in
                guard table.required.contains(key.name), case .words(let words) = key.value else { return nil }
                return .init(key.name, .object([.init("enum", .array(words.map { .string($0) }))]))
            }
            guard !marks.isEmpty else { return Self.type("object") }
            return .object([.init("type", .string("object")), .init("required", .array(marks.map { .string($0.key) })), .init("properties", .object(marks))])
        case .scalar, .anything, .type, .either: return nil
        }
    }
}
