import Foundation

/// The text members of a plain API's error body: what tells its entries of one status
/// apart (``Service/errorCode(status:body:)``) and its message.
nonisolated struct ErrorMembers: Decodable {
    /// Each member whose value is text.
    var texts: [String: String] = [:]

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: AccordCodingKey.self)
        for key in container.allKeys {
            if let text = try? container.decode(String.self, forKey: key) { texts[key.stringValue] = text }
        }
    }

    init(_ body: Data) {
        self = (try? JSONDecoder().decode(ErrorMembers.self, from: body)) ?? ErrorMembers(texts: [:])
    }

    private init(texts: [String: String]) {
        self.texts = texts
    }

    /// A problem document's `detail`, else its `title`.
    static func message(in body: Data) -> String? {
        let members = ErrorMembers(body)
        return members.texts["detail"] ?? members.texts["title"]
    }
}
