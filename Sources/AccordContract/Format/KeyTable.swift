/// One kind of mapping in a contract or mocks file and the keys it takes, each with what
/// it holds and what it means: the list the loader holds a file to (unknown keys are
/// errors with the nearest one), and the one `accord schema` writes as a JSON Schema for
/// editors, so the two cannot disagree.
public struct KeyTable: Sendable {
    /// The name other tables refer to it by (`signing`), and its JSON Schema `$defs` key.
    public var name: String
    public var description: String
    public var keys: [Key]
    /// Keys the mapping must have.
    public var required: [String]

    public init(_ name: String, _ description: String, required: [String] = [], _ keys: [Key]) {
        self.name = name
        self.description = description
        self.required = required
        self.keys = keys
    }

    /// The key names, in the order the format documents them.
    public var names: [String] { keys.map(\.name) }

    /// The keys a service of `style` takes.
    public func names(for style: Style) -> [String] {
        keys.filter { $0.style == nil || $0.style == style }.map(\.name)
    }

    /// A kind of service some keys belong to only: one with an envelope, or a plain REST API.
    public enum Style: Sendable {
        case enveloped, plain
    }

    /// One key: its name, what its value is, what it means.
    public struct Key: Sendable {
        public var name: String
        public var value: Value
        public var description: String
        /// The kind of service the key belongs to; nil for both.
        public var style: Style?

        public init(_ name: String, _ value: Value, _ description: String, only style: Style? = nil) {
            self.name = name
            self.value = value
            self.description = description
            self.style = style
        }
    }

    /// What a key's value is, as loosely as the loader reads it (its own checks say the rest).
    public indirect enum Value: Sendable {
        case text, integer, number, boolean
        /// A string, number or boolean (what a matcher or header compares).
        case scalar
        /// Text or a number: durations (`300s`), sizes (`4MiB`), versions.
        case textOrNumber
        /// One of these words.
        case words([String])
        /// Any YAML value.
        case anything
        case list(Value)
        /// A mapping of any keys to values of this kind.
        case map(Value)
        /// A mapping read by another table.
        case table(String)
        /// A type position of the contract format (`string`, `[Media]`, `{fields: …}`, …).
        case type
        case either([Value])
    }
}
