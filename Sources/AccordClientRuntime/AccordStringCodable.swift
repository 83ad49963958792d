import Foundation

/// A value carried as a JSON string: decoded with `init?(text:)`, encoded as `text`.
public nonisolated protocol StringCodable: Codable {
    init?(text: String)
    var text: String { get }
    /// What the string should have been, for the decoding error.
    static var expectation: String { get }
}

nonisolated extension StringCodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let value = Self(text: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "expected \(Self.expectation), found \"\(text)\"")
        }
        self = value
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(text)
    }
}
