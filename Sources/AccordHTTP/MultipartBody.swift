/// A `multipart/form-data` body (RFC 7578) split into its parts.
///
/// The engine reads whole bodies without a connection, so libmicrohttpd's post
/// processor (bound to one) cannot serve it; the format is small and the reader is
/// bounded: at most ``maxParts`` parts, ``maxHeaderBytes`` of headers each, and the body
/// itself is capped by the server's body limit before it gets here.
public struct MultipartBody: Sendable {
    /// One part: its form name, the file name and media type it declares, its bytes.
    public struct Part: Sendable {
        public var name: String
        public var filename: String?
        public var contentType: String?
        public var bytes: ArraySlice<UInt8>

        /// The part's bytes as UTF-8 text (form fields).
        public var text: String { String(decoding: bytes, as: UTF8.self) }
    }

    /// Why a body is not multipart as its `Content-Type` says.
    public struct Failure: Error, Sendable, Equatable {
        public var message: String
    }

    public static let maxParts = 64
    public static let maxHeaderBytes = 8 << 10

    public var parts: [Part]

    /// The boundary of a `multipart/form-data; boundary=…` media type, or nil for another type.
    public static func boundary(of contentType: String) -> String? {
        let pieces = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
        guard let type = pieces.first, type.lowercased() == "multipart/form-data" else { return nil }
        for piece in pieces.dropFirst() {
            let pair = piece.split(separator: "=", maxSplits: 1).map(String.init)
            guard pair.count == 2, pair[0].lowercased() == "boundary" else { continue }
            let value = pair[1].hasPrefix("\"") && pair[1].hasSuffix("\"") && pair[1].count >= 2 ? String(pair[1].dropFirst().dropLast()) : pair[1]
            return value
        }
        return ""
    }

    /// Splits `body` at `boundary` (1 to 70 characters, RFC 2046).
    public init(_ body: [UInt8], boundary: String) throws(Failure) {
        guard (1...70).contains(boundary.utf8.count) else {
            throw Failure(message: "the multipart boundary must be 1 to 70 characters, found \(boundary.utf8.count)")
        }
        let delimiter = Array(("--" + boundary).utf8)
        guard var cursor = Self.find(delimiter, in: body, from: 0) else {
            throw Failure(message: "the body does not contain its boundary '\(boundary)'")
        }
        var parts: [Part] = []
        while true {
            cursor += delimiter.count
            if body.count >= cursor + 2, body[cursor] == UInt8(ascii: "-"), body[cursor + 1] == UInt8(ascii: "-") { break }
            // Transport padding (RFC 2046 §5.1.1): spaces and tabs a gateway may add before the line break.
            while cursor < body.count, body[cursor] == 0x20 || body[cursor] == 0x09 { cursor += 1 }
            guard body.count >= cursor + 2, body[cursor] == 0x0D, body[cursor + 1] == 0x0A else {
                throw Failure(message: "expected a line break after the boundary at byte \(cursor)")
            }
            cursor += 2
            guard parts.count < Self.maxParts else { throw Failure(message: "more than \(Self.maxParts) parts") }
            guard let headerEnd = Self.find([0x0D, 0x0A, 0x0D, 0x0A], in: body, from: cursor, limit: Self.maxHeaderBytes) else {
                throw Failure(message: "part \(parts.count + 1) has no end to its headers within \(Self.maxHeaderBytes) bytes")
            }
            var part = try Self.part(headers: body[cursor..<headerEnd], index: parts.count + 1)
            let contentStart = headerEnd + 4
            guard let next = Self.find([0x0D, 0x0A] + delimiter, in: body, from: contentStart) else {
                throw Failure(message: "part '\(part.name)' is not closed by the boundary")
            }
            part.bytes = body[contentStart..<next]
            parts.append(part)
            cursor = next + 2
        }
        self.parts = parts
    }

    /// The part's `Content-Disposition` and `Content-Type`.
    private static func part(headers: ArraySlice<UInt8>, index: Int) throws(Failure) -> Part {
        var name: String?
        var filename: String?
        var contentType: String?
        for line in String(decoding: headers, as: UTF8.self).split(separator: "\r\n") {
            guard let colon = line.firstIndex(of: ":") else { throw Failure(message: "part \(index) has a header line without ':'") }
            let field = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            switch field {
            case "content-disposition":
                let parameters = Self.parameters(value)
                guard parameters.type == "form-data" else {
                    throw Failure(message: "part \(index) is '\(parameters.type)', expected Content-Disposition: form-data")
                }
                // `name*=UTF-8''…` (RFC 2231, RFC 5987) where a client encodes a non-ASCII name so.
                name = parameters.values["name"] ?? parameters.values["name*"].flatMap(Self.extendedValue)
                filename = parameters.values["filename"] ?? parameters.values["filename*"].flatMap(Self.extendedValue)
            case "content-type":
                contentType = value.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            default:
                continue
            }
        }
        guard let name, !name.isEmpty else { throw Failure(message: "part \(index) has no name in its Content-Disposition") }
        return Part(name: name, filename: filename, contentType: contentType, bytes: [])
    }

    /// An extended parameter value, `charset'language'percent-encoded` (RFC 5987 §3.2), as
    /// text; nil for a charset other than UTF-8 and ISO-8859-1, or bytes that are not UTF-8.
    static func extendedValue(_ text: String) -> String? {
        let pieces = text.split(separator: "'", maxSplits: 2, omittingEmptySubsequences: false)
        guard pieces.count == 3 else { return nil }
        let bytes = PercentDecoding.bytes(pieces[2].utf8, plusAsSpace: false)
        switch pieces[0].lowercased() {
        case "utf-8": return String(validating: bytes, as: UTF8.self)
        case "iso-8859-1": return String(bytes.map { Character(UnicodeScalar($0)) })
        default: return nil
        }
    }

    /// `form-data; name="file"; filename="a b.jpg"` → type and parameters (quotes and
    /// backslash escapes undone).
    private static func parameters(_ value: String) -> (type: String, values: [String: String]) {
        var values: [String: String] = [:]
        var characters = Substring(value)
        func take(until stop: Character) -> Substring {
            let end = characters.firstIndex(of: stop) ?? characters.endIndex
            defer { characters = characters[end...] }
            return characters[..<end]
        }
        let type = take(until: ";").trimmingCharacters(in: .whitespaces).lowercased()
        while characters.first == ";" {
            characters = characters.dropFirst()
            let key = take(until: "=").trimmingCharacters(in: .whitespaces).lowercased()
            guard characters.first == "=" else { break }
            characters = characters.dropFirst().drop { $0 == " " }
            var text = ""
            if characters.first == "\"" {
                characters = characters.dropFirst()
                while let character = characters.first, character != "\"" {
                    characters = characters.dropFirst()
                    if character == "\\", let escaped = characters.first {
                        text.append(escaped)
                        characters = characters.dropFirst()
                    } else {
                        text.append(character)
                    }
                }
                characters = characters.dropFirst()
                _ = take(until: ";")
            } else {
                text = take(until: ";").trimmingCharacters(in: .whitespaces)
            }
            values[key] = text
        }
        return (type, values)
    }

    /// The first index of `needle` in `haystack` at or after `start` (and, with `limit`,
    /// starting within `limit` bytes of it). Knuth–Morris–Pratt: linear in the body
    /// however a hostile one repeats the boundary's first bytes.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int, limit: Int? = nil) -> Int? {
        guard !needle.isEmpty, start >= 0 else { return nil }
        let end = min(haystack.count, limit.map { start + $0 + needle.count } ?? .max)
        // failure[i]: the length of the longest proper prefix of needle[0...i] that is also its suffix.
        var failure = [Int](repeating: 0, count: needle.count)
        var length = 0
        for index in needle.indices.dropFirst() {
            while length > 0, needle[index] != needle[length] { length = failure[length - 1] }
            if needle[index] == needle[length] { length += 1 }
            failure[index] = length
        }
        var matched = 0
        var index = start
        while index < end {
            while matched > 0, haystack[index] != needle[matched] { matched = failure[matched - 1] }
            if haystack[index] == needle[matched] { matched += 1 }
            if matched == needle.count { return index - needle.count + 1 }
            index += 1
        }
        return nil
    }
}
