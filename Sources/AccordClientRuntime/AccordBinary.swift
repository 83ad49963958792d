import Foundation

/// The answer of an endpoint that serves bytes (`binary:` in the contract), such as an
/// uploaded image: the bytes and the media type they came as. Its failures are the
/// envelope's business codes, as for any call.
public nonisolated struct AccordBinary: Decodable, Hashable, Sendable {
    public var data: Data
    public var contentType: String

    public init(data: Data, contentType: String) {
        self.data = data
        self.contentType = contentType
    }

    /// Bytes never arrive as JSON: the client builds this value from the answer itself.
    public init(from decoder: any Decoder) throws {
        throw DecodingError.typeMismatch(AccordBinary.self, .init(codingPath: decoder.codingPath,
                                                                  debugDescription: "a binary answer is read as bytes, not JSON"))
    }
}
