/// A member's name on the wire as a coding key: the one key type every generated model
/// and the envelope read and write their members by, instead of a `CodingKeys` enum each
/// (an enum per model is a dozen functions the compiler writes and an app builds).
public nonisolated struct AccordCodingKey: CodingKey, Hashable, Sendable {
    public var stringValue: String
    public var intValue: Int? { nil }

    public init(stringValue: String) {
        self.stringValue = stringValue
    }

    public init?(intValue: Int) {
        nil
    }
}
