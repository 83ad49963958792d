import AccordJSON

extension Node.Scalar {
    /// The scalar as JSON under YAML 1.2's core schema (`true`, `5`, `1.5`, `null`, else a string).
    public var json: JSONValue {
        switch resolved {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        }
    }
}

extension Node {
    /// The node as JSON under YAML 1.2's core schema; mapping keys that are not scalars are left out.
    public var json: JSONValue {
        switch content {
        case .scalar(let scalar): scalar.json
        case .sequence(let items): .array(items.map(\.json))
        case .mapping(let pairs): .object(pairs.compactMap { pair in pair.key.scalar.map { .init($0.value, pair.value.json) } })
        }
    }
}
