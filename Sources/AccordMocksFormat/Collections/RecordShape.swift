import AccordContract
import AccordJSON

/// Records seen through the contract's types: the schema at a member pointer, overlays,
/// and the order of values.
package enum RecordShape {
    /// The schema of the member at `pointer` inside `schema`, through references, objects
    /// and arrays (an array is entered by an index); nil when the type has no such member.
    package static func schema(at pointer: JSONPointer, in schema: Schema, contract: Contract) -> Schema? {
        var current = schema
        for token in pointer.tokens {
            switch contract.resolvedKind(of: current) {
            case .object(let fields):
                guard let field = fields.first(where: { $0.name == token }) else { return nil }
                current = field.schema
            case .array(let item):
                guard Int(token) != nil else { return nil }
                current = item
            case .map(let value):
                current = value
            default:
                return nil
            }
        }
        return current
    }

    /// The member names an object schema declares, for hints; empty for other kinds.
    package static func memberNames(of schema: Schema, contract: Contract) -> [String] {
        guard case .object(let fields) = contract.resolvedKind(of: schema) else { return [] }
        return fields.map(\.name)
    }

    /// `base` with the members of `overlay` put over it (an object over an object; any
    /// other overlay replaces the base).
    package static func overlay(_ overlay: JSONValue, on base: JSONValue) -> JSONValue {
        guard case .object(var members) = base, case .object(let extra) = overlay else { return overlay }
        for member in extra {
            if let index = members.firstIndex(where: { $0.key == member.key }) { members[index].value = member.value } else { members.append(member) }
        }
        return .object(members)
    }

    /// Orders JSON values for sorting: absent and null first, then numbers by value,
    /// strings by their Unicode scalars (RFC 3339 times in UTC sort in time order),
    /// booleans false before true.
    package static func ascending(_ a: JSONValue?, _ b: JSONValue?) -> Int {
        switch (a, b) {
        case (.int(let x)?, .int(let y)?): return x < y ? -1 : (x > y ? 1 : 0)
        case (.string(let x)?, .string(let y)?): return x < y ? -1 : (x == y ? 0 : 1)
        case (.bool(let x)?, .bool(let y)?): return x == y ? 0 : (x ? 1 : -1)
        default:
            let (x, y) = (number(a), number(b))
            if let x, let y { return x < y ? -1 : (x > y ? 1 : 0) }
            return rank(a) < rank(b) ? -1 : (rank(a) > rank(b) ? 1 : 0)
        }
    }

    private static func number(_ value: JSONValue?) -> Double? {
        switch value {
        case .int(let x)?: Double(x)
        case .double(let x)?: x
        default: nil
        }
    }

    private static func rank(_ value: JSONValue?) -> Int {
        switch value {
        case nil, .null?: 0
        case .bool?: 1
        case .int?, .double?: 2
        case .string?: 3
        case .array?: 4
        case .object?: 5
        }
    }
}

/// The members a schema keeps, worked out once from the contract: a record cut down to
/// another type (a `SignalDetail` record answered as a `Signal` in a list) is then a walk
/// of names, not of the contract's types.
package indirect enum Projection: Sendable {
    /// Kept as it is: a scalar, or a type met again inside itself.
    case whole
    case object([(name: String, member: Projection)])
    case array(Projection)
    case map(Projection)

    package init(_ schema: Schema, contract: Contract) {
        var visiting: Set<String> = []
        self.init(schema, contract: contract, visiting: &visiting)
    }

    private init(_ schema: Schema, contract: Contract, visiting: inout Set<String>) {
        var kind = schema.kind
        var names: [String] = []
        while case .reference(let name) = kind, let declaration = contract.types[name] {
            // A type inside itself is kept whole: its projection would never end.
            guard !visiting.contains(name), names.count < 32 else { self = .whole; visiting.subtract(names); return }
            visiting.insert(name)
            names.append(name)
            kind = declaration.schema.kind
        }
        defer { visiting.subtract(names) }
        switch kind {
        case .object(let fields):
            self = .object(fields.map { ($0.name, Projection($0.schema, contract: contract, visiting: &visiting)) })
        case .array(let item):
            self = .array(Projection(item, contract: contract, visiting: &visiting))
        case .map(let value):
            self = .map(Projection(value, contract: contract, visiting: &visiting))
        default:
            self = .whole
        }
    }

    /// `value` with only the members this projection keeps, in its order.
    package func apply(to value: JSONValue) -> JSONValue {
        switch (self, value) {
        case (.object(let members), .object(let present)):
            return .object(members.compactMap { member in
                present.first { $0.key == member.name }.map { .init(member.name, member.member.apply(to: $0.value)) }
            })
        case (.array(let item), .array(let items)):
            return .array(items.map { item.apply(to: $0) })
        case (.map(let valueProjection), .object(let present)):
            return .object(present.map { .init($0.key, valueProjection.apply(to: $0.value)) })
        default:
            return value
        }
    }
}
