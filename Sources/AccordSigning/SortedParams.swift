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
        // A stable sort by the UTF-8 bytes of the key: repeated query keys keep their
        // order. Insertion sort: a request has a handful of parameters, often one.
        for index in pairs.indices.dropFirst() {
            var position = index
            let pair = pairs[index]
            while position > 0, pair.key.utf8.lexicographicallyPrecedes(pairs[position - 1].key.utf8) {
                pairs[position] = pairs[position - 1]
                position -= 1
            }
            pairs[position] = pair
        }
        var text = ""
        text.reserveCapacity(pairs.reduce(pairs.count) { $0 + $1.key.utf8.count + $1.value.utf8.count + 1 })
        for (index, pair) in pairs.enumerated() {
            if index > 0 { text += "&" }
            text += pair.key
            text += "="
            text += pair.value
        }
        return text
    }

    public static func text(of value: JSONValue) -> String? {
        switch value {
        case .null: nil
        case .string(let text): text
        case .bool(let flag): flag ? "true" : "false"
        case .int(let int): String(int)
        // A number with no fractional part is an integer however it was written (`1080.0`, `1.08e3`), as JSON Schema counts it.
        case .double(let double): Int(exactly: double).map(String.init) ?? JSONWriter.number(double)
        case .array, .object: JSONWriter.string(containsDouble(value) ? integersAsIntegers(value) : value, sortedKeys: true)
        }
    }

    /// Whether a number written with a fraction or an exponent is anywhere in `value`
    /// (most bodies hold none, and then nothing is rebuilt).
    public static func containsDouble(_ value: JSONValue) -> Bool {
        switch value {
        case .double: true
        case .array(let items): items.contains(where: containsDouble)
        case .object(let members): members.contains { containsDouble($0.value) }
        default: false
        }
    }

    /// `value` with every integral number as an integer, as the signing rule writes them inside compact JSON.
    static func integersAsIntegers(_ value: JSONValue) -> JSONValue {
        switch value {
        case .double(let double): Int(exactly: double).map(JSONValue.int) ?? value
        case .array(let items): .array(items.map(integersAsIntegers))
        case .object(let members): .object(members.map { .init($0.key, integersAsIntegers($0.value)) })
        default: value
        }
    }

    /// The JSON pointer of the first integral number beyond the signed 64-bit range in
    /// `value` (which no rule can sign as an integer), if there is one.
    public static func pointerToIntegerOutOfRange(in value: JSONValue, at pointer: String = "") -> String? {
        switch value {
        case .double(let double) where double.rounded() == double && double.isFinite && Int(exactly: double) == nil:
            return pointer
        case .array(let items):
            return items.indices.lazy.compactMap { pointerToIntegerOutOfRange(in: items[$0], at: pointer + "/\($0)") }.first
        case .object(let members):
            return members.lazy.compactMap { pointerToIntegerOutOfRange(in: $0.value, at: pointer + "/" + $0.key.jsonPointerEscaped) }.first
        default:
            return nil
        }
    }
}
