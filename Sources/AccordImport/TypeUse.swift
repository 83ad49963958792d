import AccordJSON

/// A schema as the contract writes it where a type goes: a type expression (`Pet`, `[Pet]`,
/// `{string: int}`) with the long form's other keys, and whether it may be `null`.
struct TypeUse {
    /// `string`, `Pet`, `[Pet]`, `{string: any}`.
    var expression: String
    /// Long-form keys beside `type`, in contract spelling (`description`, `min_length`, `default`…).
    var attributes: [JSONValue.Member] = []
    var isNullable = false
    /// Written `readOnly` (answers only) or `writeOnly` (requests only): never required.
    var isOneWay = false

    static let any = TypeUse(expression: "any")

    /// Whether an attribute constrains values (rather than documenting them).
    var hasConstraints: Bool { attributes.contains { !["description", "deprecated"].contains($0.key) } }

    /// The type position of a field: the bare expression when nothing else is said, else the long form.
    func field(optional: Bool) -> JSONValue {
        var members = ordered
        if optional { members.append(.init("optional", .bool(true))) } else if isNullable { members.append(.init("nullable", .bool(true))) }
        guard !members.isEmpty else { return .string(expression) }
        return .object([.init("type", .string(expression))] + members)
    }

    /// The attributes in one order, whatever order the document wrote them in.
    private var ordered: [JSONValue.Member] {
        attributes.sorted { (Self.order.firstIndex(of: $0.key) ?? Self.order.count) < (Self.order.firstIndex(of: $1.key) ?? Self.order.count) }
    }

    private static let order = ["description", "deprecated", "default", "min", "max", "min_length", "max_length", "min_items", "max_items", "pattern"]

    /// The type position where neither optionality nor nullability can be said (`body`, `response`).
    var position: JSONValue {
        attributes.isEmpty ? .string(expression) : .object([.init("type", .string(expression))] + ordered)
    }
}

/// A named type the import declares, in the file of the domain that uses it (nil: the service file).
struct Declaration {
    let name: String
    var domain: String?
    /// The declaration's body: `{fields: …}`, `{enum: …}`, `{discriminator: …, one_of: …}` or an alias `{type: …}`.
    var body: JSONValue = .object([])
}
