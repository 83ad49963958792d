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

/// The members of an object being encoded, written by wire name in the order given: what
/// a generated model's `encode(to:)` writes. A nil optional is left out, as Swift's own
/// `Encodable` leaves it out.
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
