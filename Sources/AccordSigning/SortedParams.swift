import AccordJSON

/// Builds `sorted_params` of the signing rule from a request's query and body.
///
/// ```swift
/// SortedParams.make(query: [("limit", "20"), ("cursor", "abc")], body: nil)  // "cursor=abc&limit=20"
/// ```
public enum SortedParams {
    /// - Parameters:
    ///   - query: the query parameters, percent-decoded, in request order.
    ///   - body: the parsed body; only a JSON object contributes (its top-level members).
    public static func make(query: [(name: String, value: String)], body: JSONValue?) -> String {
        var pairs = query.map { (key: $0.name, value: $0.value) }
        if case .object(let members)? = body {
            for member in members {
                guard let text = text(of: member.value) else { continue }
                pairs.append((member.key, text))
            }
        }
        // A stable sort by the UTF-8 bytes of the key: repeated query keys keep their order.
        let sorted = pairs.enumerated().sorted { lhs, rhs in
            if lhs.element.key == rhs.element.key { return lhs.offset < rhs.offset }
            return lhs.element.key.utf8.lexicographicallyPrecedes(rhs.element.key.utf8)
        }
        return sorted.map { "\($0.element.key)=\($0.element.value)" }.joined(separator: "&")
    }

    /// A body member's text; nil for `null`, which is left out.
    public static func text(of value: JSONValue) -> String? {
        switch value {
        case .null: nil
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .int(let int): String(int)
        case .double(let double): JSONWriter.number(double)
        case .array, .object: JSONWriter.string(value, sortedKeys: true)
        }
    }
}
