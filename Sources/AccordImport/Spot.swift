import AccordDiagnostics
import AccordJSON
import AccordYAML

/// A node of an OpenAPI document with where it is: its file, its JSON pointer there and its position.
struct Spot: Sendable {
    /// The file as diagnostics name it.
    let file: String
    /// The JSON pointer of the node in its file (`""` for the root).
    let pointer: String
    let node: Node

    /// Where the node starts, for diagnostics.
    var location: SourceLocation { SourceLocation(file: file, line: node.mark.line, column: node.mark.column) }

    /// The member `key` of a mapping.
    subscript(key: String) -> Spot? {
        node[key].map { Spot(file: file, pointer: pointer + "/" + key.jsonPointerEscaped, node: $0) }
    }

    /// The members of a mapping in written order; keys that are not scalars are left out.
    var members: [(key: String, value: Spot)] {
        (node.mapping ?? []).compactMap { pair in
            pair.key.scalar.map { ($0.value, Spot(file: file, pointer: pointer + "/" + $0.value.jsonPointerEscaped, node: pair.value)) }
        }
    }

    /// The items of a sequence.
    var items: [Spot] {
        (node.sequence ?? []).enumerated().map { Spot(file: file, pointer: pointer + "/\($0.offset)", node: $0.element) }
    }

    var isMapping: Bool { node.mapping != nil }

    /// The scalar's value as text, whatever its YAML type (`200` and `'200'` alike).
    var text: String? { node.scalar?.value }

    /// The scalar as a string (a quoted or plain text that is not a number, boolean or null).
    var string: String? {
        if case .string(let value)? = node.scalar?.resolved { return value }
        return nil
    }

    var bool: Bool? {
        if case .bool(let value)? = node.scalar?.resolved { return value }
        return nil
    }

    var int: Int? {
        if case .int(let value)? = node.scalar?.resolved { return value }
        return nil
    }

    /// The scalar as a number (an integer or a double).
    var number: Double? {
        switch node.scalar?.resolved {
        case .int(let value)?: Double(value)
        case .double(let value)?: value
        default: nil
        }
    }

    /// The node as JSON under YAML 1.2's core schema.
    var json: JSONValue { node.json }

    /// `#/components/schemas/Pet`, as a diagnostic's suffix names the node.
    var reference: String { "#" + pointer }
}
