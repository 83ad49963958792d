import AccordJSON
import Foundation

/// The opaque `next_cursor` of a list effect: where the last page ended (its last
/// record's sort value and key), bound to the session and collection, signed with the
/// server's secret so a cursor the server never issued is refused instead of guessed.
///
/// Keyset pagination: a page resumes after the position, so records inserted or deleted
/// meanwhile neither repeat nor skip the rest. Written `c1.<base64url payload>.<mac>`.
package struct PageCursor: Equatable {
    package var session: String
    package var collection: String
    /// The last record's value of the order member (null without an order).
    package var sortValue: JSONValue
    package var key: String

    /// The longest cursor text read; longer is refused before decoding.
    package static let maxLength = 2_048

    /// The cursor as sent to the client, its payload tagged by `signer` under `secret`.
    package func encoded(secret: [UInt8], signer: any StateSigner) -> String {
        let payload = JSONWriter.bytes(.array([.string(session), .string(collection), sortValue, .string(key)]))
        let text = String(decoding: Data(payload).base64EncodedString().utf8.compactMap(Self.urlSafe), as: UTF8.self)
        return "c1." + text + "." + signer.tag(Array(text.utf8), key: secret)
    }

    /// The cursor in `text`, if this server issued it (its tag verifies).
    package init?(decoding text: String, secret: [UInt8], signer: any StateSigner) {
        guard text.utf8.count <= Self.maxLength else { return nil }
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "c1", signer.verifies(String(parts[2]), of: Array(parts[1].utf8), key: secret) else { return nil }
        var base64 = parts[1].utf8.map { byte in byte == UInt8(ascii: "-") ? UInt8(ascii: "+") : (byte == UInt8(ascii: "_") ? UInt8(ascii: "/") : byte) }
        base64 += Array(repeating: UInt8(ascii: "="), count: (4 - base64.count % 4) % 4)
        guard let data = Data(base64Encoded: Data(base64)), case .array(let items)? = try? JSONReader.read(Array(data)), items.count == 4,
              case .string(let session) = items[0], case .string(let collection) = items[1], case .string(let key) = items[3]
        else { return nil }
        self.init(session: session, collection: collection, sortValue: items[2], key: key)
    }

    package init(session: String, collection: String, sortValue: JSONValue, key: String) {
        self.session = session
        self.collection = collection
        self.sortValue = sortValue
        self.key = key
    }

    /// A base64 byte in the URL-safe alphabet (RFC 4648 §5), padding dropped.
    private static func urlSafe(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "+"): UInt8(ascii: "-")
        case UInt8(ascii: "/"): UInt8(ascii: "_")
        case UInt8(ascii: "="): nil
        default: byte
        }
    }
}
