import AccordHTTP
import AccordJSON
import AccordMock
import Foundation

/// The X-Sign test vectors of `docs/signing-vectors.json`, which the server's verifier,
/// the generated client's signer and the Python signer of the end-to-end tests all run against.
public struct SigningVector: Sendable, CustomStringConvertible {
    public var method: String
    public var target: String
    public var timestamp: String
    public var nonce: String
    /// The body as sent, JSON text.
    public var body: String?
    public var sortedParams: String
    public var sign: String
    public var note: String

    public var description: String { "\(method) \(target) (\(note))" }

    /// The query as the server reads it: percent-decoded, `+` a space.
    public var query: [(name: String, value: String)] { MockRequest(method: method, target: target).query }

    /// The body, parsed.
    public func bodyValue() throws -> JSONValue? {
        try body.map { try JSONReader.read(Array($0.utf8)) }
    }

    public static let file = Repository.root.appendingPathComponent("docs/signing-vectors.json").path

    /// Every vector of the file.
    public static let all: [SigningVector] = {
        guard let data = FileManager.default.contents(atPath: file), let document = try? JSONReader.read(Array(data)),
              case .array(let items)? = document["vectors"] else {
            preconditionFailure("\(file) does not read")
        }
        return items.map { item in
            func text(_ key: String) -> String { if case .string(let value)? = item[key] { value } else { "" } }
            let body: String? = if case .string(let value)? = item["body"] { value } else { nil }
            return SigningVector(method: text("method"), target: text("target"), timestamp: text("timestamp"), nonce: text("nonce"), body: body,
                                 sortedParams: text("sorted_params"), sign: text("sign"), note: text("note"))
        }
    }()
}
