/// A JSON value that keeps object members in the order they were written.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([Member])

    /// One member of a JSON object.
    public struct Member: Sendable, Hashable {
        public var key: String
        public var value: JSONValue

        public init(_ key: String, _ value: JSONValue) {
            self.key = key
            self.value = value
        }
    }

    /// The value of member `key`, if this is an object that has it.
    public subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.key == key }?.value
    }

    /// A short description of the value for messages: `a string "abc"`, `an integer 5`.
    public var summary: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return "a boolean \(value)"
        case .int(let value): return "an integer \(value)"
        case .double(let value): return "a number \(value)"
        case .string(let value):
            let shown = value.count > 40 ? String(value.prefix(40)) + "…" : value
            return "a string \"\(shown)\""
        case .array(let items): return "an array of \(items.count) item\(items.count == 1 ? "" : "s")"
        case .object: return "an object"
        }
    }

    /// The JSON type name: `null`, `boolean`, `integer`, `number`, `string`, `array`, `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int: "integer"
        case .double: "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }
}

extension String {
    /// This string escaped as one JSON Pointer reference token (RFC 6901).
    public var jsonPointerEscaped: String {
        guard utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else { return self }
        var escaped = ""
        for character in self {
            switch character {
            case "~": escaped += "~0"
            case "/": escaped += "~1"
            default: escaped.append(character)
            }
        }
        return escaped
    }
}

extension JSONValue {
    /// The value at a JSON pointer (RFC 6901), such as `/device_info/os` or `/items/0`.
    public func value(at pointer: String) -> JSONValue? {
        JSONPointer(pointer)?.value(in: self)
    }
}

extension JSONValue {
    /// About how many bytes the value takes in memory and as compact JSON: its strings'
    /// and names' UTF-8 bytes plus a few for each value, worked out without writing it.
    /// What byte budgets count (a session's records).
    public var approximateSize: Int {
        switch self {
        case .null, .bool: 8
        case .int, .double: 16
        case .string(let text): 16 + text.utf8.count
        case .array(let items): items.reduce(16) { $0 + $1.approximateSize }
        case .object(let members): members.reduce(16) { $0 + 16 + $1.key.utf8.count + $1.value.approximateSize }
        }
    }
}
