/// The members of an object being encoded, written by wire name: what a generated
/// model's `encode(to:)` writes. A nil optional is left out, as Swift's own `Encodable`
/// leaves it out.
public nonisolated struct AccordMembersEncoder {
    private var container: KeyedEncodingContainer<AccordCodingKey>

    public init(_ encoder: any Encoder) {
        container = encoder.container(keyedBy: AccordCodingKey.self)
    }

    /// Writes `value` as the member `name`.
    public mutating func required<Value: Encodable>(_ value: Value, _ name: String) throws {
        try container.encode(value, forKey: AccordCodingKey(stringValue: name))
    }

    /// Writes `value` as the member `name` unless it is nil.
    public mutating func optional<Value: Encodable>(_ value: Value?, _ name: String) throws {
        try container.encodeIfPresent(value, forKey: AccordCodingKey(stringValue: name))
    }
}
