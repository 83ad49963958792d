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
        var pairs = query.map { (key: $0.name, value: Value.text($0.value)) }
        if case .object(let members)? = body {
            for member in members {
                if case .null = member.value { continue }
                pairs.append((member.key, .json(member.value)))
            }
        }
        // By the UTF-8 bytes of the key, stably: repeated query keys keep their order. The
        // standard library's sort, not an insertion sort: a body of a megabyte holds some
        // 90,000 members, which would take n² steps before the signature is known good.
        pairs.sort { UTF8Order.precedes($0.key, $1.key) }
        // Written as bytes once: no string per value, no string grown by each part.
        var output = ByteOutput(capacity: pairs.reduce(pairs.count) { size, pair in
            switch pair.value {
            case .text(let text): size + pair.key.utf8.count + text.utf8.count
            case .json: size + pair.key.utf8.count + 32
            }
        })
        for index in pairs.indices {
            if index > 0 { output.append(UInt8(ascii: "&")) }
            append(pairs[index].key, to: &output)
            output.append(UInt8(ascii: "="))
            switch pairs[index].value {
            case .text(let text): append(text, to: &output)
            case .json(let value): write(value, into: &output)
            }
        }
        return output.string()
    }

    /// A parameter's value: sent as text (the query), or a body member's JSON value.
    private enum Value {
        case text(String)
        case json(JSONValue)
    }

    /// The text a body member's value signs as; nil for null, which is left out.
    public static func text(of value: JSONValue) -> String? {
        if case .null = value { return nil }
        var output = ByteOutput(capacity: 32)
        write(value, into: &output)
        return output.string()
    }

    /// Writes the text `value` signs as: a string as it is, a boolean or a number as JSON
    /// writes it (an integral number as an integer, however it was written: `1080.0`,
    /// `1.08e3`, as JSON Schema counts it), an array or object as compact JSON with sorted
    /// keys; nothing for null.
    private static func write(_ value: JSONValue, into output: inout ByteOutput) {
        switch value {
        case .null: break
        case .string(let text): append(text, to: &output)
        case .bool(let flag): output.append(flag ? "true" : "false")
        case .int(let int): JSONWriter.writeInteger(int, into: &output)
        case .double(let double):
            if let int = Int(exactly: double) { JSONWriter.writeInteger(int, into: &output) } else { append(JSONWriter.number(double), to: &output) }
        case .array, .object: JSONWriter.write(containsDouble(value) ? integersAsIntegers(value) : value, sortedKeys: true, into: &output)
        }
    }

    private static func append(_ text: String, to output: inout ByteOutput) {
        var text = text
        text.withUTF8 { output.append($0) }
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
