import AccordJSON

/// An HTTP request as the engine sees it: transport-independent, so the same engine
/// runs behind libmicrohttpd or directly in a test.
public struct MockRequest: Sendable {
    public var method: String
    /// The request target exactly as sent: path and query, still percent-encoded (a
    /// proxy forwards it byte for byte).
    public let target: String
    /// The path as sent, still percent-encoded, without the query. The router splits
    /// it into segments and only then decodes each, so `%2F` stays inside its segment.
    public var path: String
    /// Query parameters, percent-decoded (`+` as space), in request order.
    public var query: [(name: String, value: String)]
    /// Headers with lowercased names; repeated headers joined with `, `.
    public var headers: HTTPHeaders
    public var body: [UInt8]
    /// The body was longer than the server's limit and was not kept.
    public var bodyLimitExceeded: Bool
    /// Why the transport refused the message framing (two `Content-Length`s, both
    /// `Content-Length` and `Transfer-Encoding`, an unknown transfer coding), if it did.
    public var framingProblem: String?
    /// The transport refused the body because the bodies of all requests in flight
    /// would have passed its budget (answered 503 with `Retry-After`).
    public var bodyBudgetExhausted = false
    /// Whether the client connected from a loopback address (true in-process).
    public var isFromLoopback = true

    /// - Parameter target: the request target as sent, such as `/api/v1/signals/inbox?limit=20`.
    public init(method: String, target: String, headers: [(String, String)] = [], body: [UInt8] = [], bodyLimitExceeded: Bool = false) {
        self.init(method: method, target: target, headers: HTTPHeaders(headers), body: body, bodyLimitExceeded: bodyLimitExceeded)
    }

    /// - Parameters:
    ///   - target: the request target as sent, such as `/api/v1/signals/inbox?limit=20`.
    ///   - headers: the headers, names already lowercased.
    public init(method: String, target: String, headers: HTTPHeaders, body: [UInt8] = [], bodyLimitExceeded: Bool = false) {
        self.method = method.utf8.contains(where: { $0 >= 0x61 && $0 <= 0x7A }) ? method.uppercased() : method
        self.target = target
        (path, query) = Self.split(target)
        self.headers = headers
        self.body = body
        self.bodyLimitExceeded = bodyLimitExceeded
    }

    /// Whether the path or a query name or value holds a NUL once decoded (`%00`),
    /// which would cut the value short wherever it meets C.
    public var containsEncodedNUL: Bool {
        ByteSearch.firstRange(of: Self.encodedNUL, in: path) != nil
            || query.contains { $0.name.utf8.contains(0) || $0.value.utf8.contains(0) }
    }

    private static let encodedNUL = Array("%00".utf8)

    /// The path and the decoded query of a request target, read from its UTF-8 bytes
    /// where they are (`?`, `&` and `=` are ASCII, so every piece is whole UTF-8).
    private static func split(_ target: String) -> (path: String, query: [(name: String, value: String)]) {
        var text = target
        let split = text.withUTF8 { bytes -> (path: String, query: [(name: String, value: String)])? in
            guard let mark = bytes.firstIndex(of: UInt8(ascii: "?")) else { return nil }
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<mark]), as: UTF8.self),
                    PercentDecoding.query(UnsafeBufferPointer(rebasing: bytes[(mark + 1)...])))
        }
        return split ?? (target, [])
    }

    /// The header named `name`, case-insensitively.
    public func header(_ name: String) -> String? {
        headers[ASCII.lowercased(name)]
    }
}

/// Percent-decoding of paths and `application/x-www-form-urlencoded` query strings.
public enum PercentDecoding {
    /// Decodes `%XX` escapes (invalid ones are kept as written) and, in queries, `+`.
    public static func decode(_ text: String, plusAsSpace: Bool) -> String {
        decode(text.utf8[...], plusAsSpace: plusAsSpace)
    }

    /// Decodes the bytes of one path segment or query name or value.
    static func decode<Bytes: Collection<UInt8>>(_ text: Bytes, plusAsSpace: Bool) -> String {
        guard text.contains(where: { $0 == UInt8(ascii: "%") || (plusAsSpace && $0 == UInt8(ascii: "+")) }) else {
            return String(decoding: text, as: UTF8.self)
        }
        return String(decoding: bytes(text, plusAsSpace: plusAsSpace), as: UTF8.self)
    }

    /// The bytes `%XX` escapes (and, in queries, `+`) stand for; invalid escapes kept as
    /// written. Decoded byte by byte: a `%XX` may end a multi-byte character, so the
    /// result is read as text only by the caller.
    public static func bytes<Bytes: Collection<UInt8>>(_ text: Bytes, plusAsSpace: Bool) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.count)
        var index = text.startIndex
        while index != text.endIndex {
            let byte = text[index]
            text.formIndex(after: &index)
            if byte == UInt8(ascii: "%"), index != text.endIndex, let high = Hex.value(text[index]) {
                let second = text.index(after: index)
                if second != text.endIndex, let low = Hex.value(text[second]) {
                    bytes.append(high << 4 | low)
                    index = text.index(after: second)
                    continue
                }
            }
            bytes.append(plusAsSpace && byte == UInt8(ascii: "+") ? UInt8(ascii: " ") : byte)
        }
        return bytes
    }

    /// Splits and decodes a query string into ordered pairs.
    public static func query(_ text: String) -> [(name: String, value: String)] {
        var text = text
        return text.withUTF8 { query($0) }
    }

    /// Splits and decodes the bytes of a query string (after `?`) into ordered pairs;
    /// empty pieces (`a=1&&b=2`) are skipped, a piece without `=` has an empty value.
    static func query(_ text: UnsafeBufferPointer<UInt8>) -> [(name: String, value: String)] {
        var pairs: [(name: String, value: String)] = []
        var start = 0
        while start < text.count {
            let end = text[start...].firstIndex(of: UInt8(ascii: "&")) ?? text.count
            if start < end {
                let equals = text[start..<end].firstIndex(of: UInt8(ascii: "=")) ?? end
                pairs.append((decode(text[start..<equals], plusAsSpace: true),
                              equals < end ? decode(text[(equals + 1)..<end], plusAsSpace: true) : ""))
            }
            start = end + 1
        }
        return pairs
    }
}
