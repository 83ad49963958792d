/// A generic type used with its arguments (`Page<Match>`): the loader declares each
/// instance as a named type of its own, the generic's members with its parameters
/// replaced, so validation, OpenAPI and diffs see an ordinary type.
public struct GenericInstance: Sendable, Hashable {
    /// The generic type's name (`Page`).
    public var generic: String
    /// The named types given for its parameters (`[Match]`).
    public var arguments: [String]

    public init(generic: String, arguments: [String]) {
        self.generic = generic
        self.arguments = arguments
    }

    /// The instance's type name, as written and as Swift spells it: `Page<Match>`.
    public var name: String { Self.name(generic, arguments) }

    public static func name(_ generic: String, _ arguments: [String]) -> String {
        generic + "<" + arguments.joined(separator: ", ") + ">"
    }

    /// The generic and arguments a type name spells, or nil for a plain name.
    public init?(name: String) {
        guard let open = name.firstIndex(of: "<"), name.hasSuffix(">") else { return nil }
        generic = String(name[..<open])
        arguments = name[name.index(after: open)..<name.index(before: name.endIndex)].split(separator: ",")
            .map { $0.trimmingCharacters(in: .whitespaces) }
    }
}
