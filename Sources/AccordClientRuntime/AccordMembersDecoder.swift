/// The members of an object being decoded, read by wire name: what a generated model's
/// `init(from:)` reads. One function for a required member and one for an optional one,
/// each with a single candidate, keep the type checker's work per member small.
public nonisolated struct AccordMembersDecoder {
    private let container: KeyedDecodingContainer<AccordCodingKey>

    public init(_ decoder: any Decoder) throws {
        container = try decoder.container(keyedBy: AccordCodingKey.self)
    }

    /// The member `name`; absent, `null` or not a `Value`, it throws.
    public func required<Value: Decodable>(_ name: String) throws -> Value {
        try container.decode(Value.self, forKey: AccordCodingKey(stringValue: name))
    }

    /// The member `name`, read leniently: nil when it is absent, `null` or not readable as
    /// `Value`, so that one odd optional value does not fail the whole answer.
    public func lenient<Value: Decodable>(_ name: String) -> Value? {
        container.decodeLeniently(Value.self, forKey: AccordCodingKey(stringValue: name))
    }
}

nonisolated extension KeyedDecodingContainer {
    /// An optional member, read leniently: nil when it is absent, `null`, or not
    /// readable as `type` (`""` for a URL, a malformed time), so that one odd optional
    /// value does not fail the whole answer.
    public func decodeLeniently<Value: Decodable>(_ type: Value.Type, forKey key: Key) -> Value? {
        (try? decodeIfPresent(type, forKey: key)) ?? nil
    }
}
