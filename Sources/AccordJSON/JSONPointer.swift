/// A JSON Pointer (RFC 6901) split once into its reference tokens, for code that reads
/// and writes the same place in many values.
public struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens; empty for the whole value.
    public let tokens: [String]
    /// The pointer as written: `/a/b~1c` (made once: list memo keys name it on every request).
    public let description: String

    /// Reads `/a/b~1c`; nil unless the text is empty or starts with `/`.
    public init?(_ text: String) {
        guard !text.isEmpty else { self.init(tokens: []); return }
        guard text.hasPrefix("/") else { return nil }
        self.init(tokens: text.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map { token in
            // A byte test, not `contains("~")`: Foundation's string search costs far more.
            token.utf8.contains(UInt8(ascii: "~")) ? String(token).replacing("~1", with: "/").replacing("~0", with: "~") : String(token)
        })
    }

    public init(tokens: [String]) {
        self.tokens = tokens
        description = tokens.map { "/" + $0.jsonPointerEscaped }.joined()
    }

    // The text and the tokens say the same (each is made from the other), so equality
    // and hashing read the text alone: one string, not an array of them (list memo keys
    // hash pointers on every request).
    public static func == (lhs: JSONPointer, rhs: JSONPointer) -> Bool {
        lhs.description == rhs.description
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(description)
    }

    /// The value at this place in `root`.
    public func value(in root: JSONValue) -> JSONValue? {
        var current = root
        for token in tokens {
            switch current {
            case .object(let members):
                // Lengths first: most members differ in length, and that is cheaper to see than their text.
                let length = token.utf8.count
                guard let next = members.first(where: { $0.key.utf8.count == length && $0.key == token })?.value else { return nil }
                current = next
            case .array(let items):
                guard let index = Int(token), items.indices.contains(index) else { return nil }
                current = items[index]
            default: return nil
            }
        }
        return current
    }

    /// Puts `value` at this place in `root`, adding the object members on the way that
    /// are missing; nil removes the member. An array index must exist; a scalar on the
    /// way is left alone. Returns whether `root` changed.
    @discardableResult
    public func set(_ value: JSONValue?, in root: inout JSONValue) -> Bool {
        Self.set(value, tokens: tokens[...], in: &root)
    }

    private static func set(_ value: JSONValue?, tokens: ArraySlice<String>, in current: inout JSONValue) -> Bool {
        guard let token = tokens.first else {
            guard let value else { return false }
            current = value
            return true
        }
        switch current {
        case .object(var members):
            if let index = members.firstIndex(where: { $0.key == token }) {
                if tokens.count == 1, value == nil {
                    members.remove(at: index)
                } else if !set(value, tokens: tokens.dropFirst(), in: &members[index].value) {
                    return false
                }
            } else {
                guard value != nil else { return false }
                var fresh = JSONValue.object([])
                guard set(value, tokens: tokens.dropFirst(), in: &fresh) else { return false }
                members.append(.init(token, fresh))
            }
            current = .object(members)
            return true
        case .array(var items):
            guard let index = Int(token), items.indices.contains(index), tokens.count > 1 || value != nil else { return false }
            guard set(value, tokens: tokens.dropFirst(), in: &items[index]) else { return false }
            current = .array(items)
            return true
        default:
            return false
        }
    }
}
