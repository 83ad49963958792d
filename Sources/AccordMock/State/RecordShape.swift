import AccordContract
import AccordJSON

/// Records seen through the contract's types: the schema at a member pointer, and a
/// record cut down to the members another type declares (a `SignalDetail` record
/// answered as a `Signal` in a list).
enum RecordShape {
    /// The schema of the member at `pointer` inside `schema`, through references, objects
    /// and arrays (an array is entered by an index); nil when the type has no such member.
    static func schema(at pointer: JSONPointer, in schema: Schema, contract: Contract) -> Schema? {
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
    static func memberNames(of schema: Schema, contract: Contract) -> [String] {
        guard case .object(let fields) = contract.resolvedKind(of: schema) else { return [] }
        return fields.map(\.name)
    }

    /// `value` with only the members `schema` declares, in its order, recursively.
    static func project(_ value: JSONValue, onto schema: Schema, contract: Contract, depth: Int = 0) -> JSONValue {
        guard depth < 32 else { return value }
        switch (contract.resolvedKind(of: schema), value) {
        case (.object(let fields), .object(let members)):
            return .object(fields.compactMap { field in
                members.first { $0.key == field.name }.map { .init(field.name, project($0.value, onto: field.schema, contract: contract, depth: depth + 1)) }
            })
        case (.array(let item), .array(let items)):
            return .array(items.map { project($0, onto: item, contract: contract, depth: depth + 1) })
        case (.map(let valueSchema), .object(let members)):
            return .object(members.map { .init($0.key, project($0.value, onto: valueSchema, contract: contract, depth: depth + 1)) })
        default:
            return value
        }
    }

    /// `base` with the members of `overlay` put over it (an object over an object; any
    /// other overlay replaces the base).
    static func overlay(_ overlay: JSONValue, on base: JSONValue) -> JSONValue {
        guard case .object(var members) = base, case .object(let extra) = overlay else { return overlay }
        for member in extra {
            if let index = members.firstIndex(where: { $0.key == member.key }) { members[index].value = member.value } else { members.append(member) }
        }
        return .object(members)
    }

    /// Orders JSON values for sorting: absent and null first, then numbers by value,
    /// strings by their UTF-8 bytes (RFC 3339 times in UTC sort in time order), booleans
    /// false before true.
    static func ascending(_ a: JSONValue?, _ b: JSONValue?) -> Int {
        switch (a, b) {
        case (.int(let x)?, .int(let y)?): return x < y ? -1 : (x > y ? 1 : 0)
        case (.string(let x)?, .string(let y)?): return x.utf8.lexicographicallyPrecedes(y.utf8) ? -1 : (x == y ? 0 : 1)
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
