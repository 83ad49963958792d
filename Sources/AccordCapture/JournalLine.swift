import AccordJSON

/// A line of an `accord serve --record` journal as a captured exchange. The journal
/// keeps the request (its headers with credentials masked, its JSON body up to 4 KiB)
/// and the answer's status and code, not its body.
public enum JournalLine {
    /// The exchange on `line`; `origin` names it in messages.
    public static func exchange(_ line: ArraySlice<UInt8>, origin: String) throws(CaptureError) -> CapturedExchange {
        let entry: JSONValue
        do {
            entry = try JSONReader.read(line)
        } catch {
            throw CaptureError("\(origin):\(error.column): not a journal line: \(error.message)")
        }
        guard case .string(let method)? = entry["method"], case .string(let path)? = entry["path"] else {
            throw CaptureError("\(origin): not a journal line: it has no 'method' and 'path'")
        }
        var target = path
        if case .array(let pairs)? = entry["query"] {
            let encoded = pairs.compactMap { pair -> String? in
                guard case .array(let items) = pair, items.count == 2, case .string(let name) = items[0], case .string(let value) = items[1] else {
                    return nil
                }
                return QueryEncoding.component(name) + "=" + QueryEncoding.component(value)
            }
            if !encoded.isEmpty { target += "?" + encoded.joined(separator: "&") }
        }
        var headers: [(name: String, value: String)] = []
        if case .array(let pairs)? = entry["headers"] {
            for pair in pairs {
                if case .array(let items) = pair, items.count == 2, case .string(let name) = items[0], case .string(let value) = items[1] {
                    headers.append((name, value))
                }
            }
        }
        var body: [UInt8] = []
        if let json = entry["body"] { body = JSONWriter.bytes(json) }
        var omitted: Int?
        if case .int(let bytes)? = entry["body_omitted_bytes"] { omitted = bytes }
        var time: Int64?
        if case .int(let wall)? = entry["wall"] { time = Int64(wall) }
        var response: CapturedExchange.Response?
        if case .int(let status)? = entry["status"] {
            var code: Int?
            if case .int(let value)? = entry["code"] { code = value }
            response = .init(status: status, contentType: nil, body: nil, code: code, redirect: nil)
        }
        var verdict: String?
        if case .string(let text)? = entry["verdict"] { verdict = text }
        return CapturedExchange(origin: origin, time: time, method: method, host: nil, target: target, headers: headers, body: body,
                                omittedBodyBytes: omitted, response: response, recordedVerdict: verdict)
    }
}

/// Percent-encoding of query components: everything but RFC 3986 unreserved characters.
enum QueryEncoding {
    static func component(_ text: String) -> String {
        var encoded = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                encoded.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let digits = Array("0123456789ABCDEF".unicodeScalars)
                encoded.unicodeScalars.append("%")
                encoded.unicodeScalars.append(digits[Int(byte >> 4)])
                encoded.unicodeScalars.append(digits[Int(byte & 0x0F)])
            }
        }
        return encoded
    }
}
