import AccordContract

/// A `multipart/form-data` body as a client writes one (RFC 7578), for the requests
/// Accord makes itself: `accord verify`'s, and the tests'.
public struct MultipartForm: Sendable {
    /// One part: a form field, or a file with its name and media type.
    public struct Part: Sendable {
        public var name: String
        public var filename: String?
        public var contentType: String?
        public var bytes: [UInt8]

        public init(name: String, filename: String? = nil, contentType: String? = nil, bytes: [UInt8]) {
            self.name = name
            self.filename = filename
            self.contentType = contentType
            self.bytes = bytes
        }
    }

    public var parts: [Part]
    public var boundary: String

    public init(parts: [Part], boundary: String = "accord-boundary-7MA4YWxkTrZu0gW") {
        self.parts = parts
        self.boundary = boundary
    }

    /// The `Content-Type` header of the body.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The text parts as the signature covers them: each a string member.
    public var signedFields: [(name: String, value: String)] {
        parts.filter { $0.filename == nil }.map { ($0.name, String(decoding: $0.bytes, as: UTF8.self)) }
    }

    public var bytes: [UInt8] {
        var body: [UInt8] = []
        for part in parts {
            var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(part.name))\""
            if let filename = part.filename { head += "; filename=\"\(Self.quoted(filename))\"" }
            head += "\r\n"
            if let type = part.contentType { head += "Content-Type: \(type)\r\n" }
            body += Array((head + "\r\n").utf8) + part.bytes + Array("\r\n".utf8)
        }
        return body + Array("--\(boundary)--\r\n".utf8)
    }

    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
    }

    /// A form that fits `parts`: each text part from `values` (a JSON object) or its
    /// first value, each file part a small valid file of its first media type.
    public static func sample(for parts: [MultipartPart], values: [String: String] = [:], types: [String: TypeDeclaration]) -> MultipartForm {
        MultipartForm(parts: parts.map { part in
            switch part.content {
            case .file(let rule):
                let type = rule.contentTypes.first { SampleFile.bytes(for: $0) != nil } ?? "image/png"
                return Part(name: part.name, filename: "sample." + (type.split(separator: "/").last.map(String.init) ?? "bin"), contentType: type,
                            bytes: SampleFile.bytes(for: type) ?? SampleFile.png)
            case .text(let schema):
                return Part(name: part.name, bytes: Array((values[part.name] ?? SampleFile.text(for: schema, types: types)).utf8))
            }
        })
    }
}

/// Small valid files of the image types uploads declare, for requests Accord makes.
public enum SampleFile {
    /// A 1×1 transparent PNG.
    public static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52, 0x00, 0x00, 0x00, 0x01,
        0x00, 0x00, 0x00, 0x01, 0x08, 0x06, 0x00, 0x00, 0x00, 0x1F, 0x15, 0xC4, 0x89, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x44, 0x41,
        0x54, 0x78, 0x9C, 0x63, 0x00, 0x01, 0x00, 0x00, 0x05, 0x00, 0x01, 0x0D, 0x0A, 0x2D, 0xB4, 0x00, 0x00, 0x00, 0x00, 0x49,
        0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82,
    ]
    /// The start of a JFIF JPEG.
    public static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
                                       0xFF, 0xD9]

    public static func bytes(for mediaType: String) -> [UInt8]? {
        switch mediaType {
        case "image/png", "image/*": png
        case "image/jpeg": jpeg
        case "image/webp": Array("RIFF".utf8) + [0x1A, 0, 0, 0] + Array("WEBPVP8L".utf8) + [0x0D, 0, 0, 0, 0x2F, 0, 0, 0, 0x10, 0x07, 0x10, 0x11, 0x11, 0x88, 0x88, 0xFE, 0x07, 0x00]
        case "image/heic": [0, 0, 0, 0x18] + Array("ftypheic".utf8) + [0, 0, 0, 0] + Array("mif1heic".utf8)
        default: nil
        }
    }

    /// A text part's sample value: its default, its first enum value, or a word.
    public static func text(for schema: Schema, types: [String: TypeDeclaration]) -> String {
        if case .string(let text)? = schema.defaultValue?.value { return text }
        var kind = schema.kind
        for _ in 0..<16 {
            guard case .reference(let name) = kind, let declaration = types[name] else { break }
            kind = declaration.schema.kind
        }
        switch kind {
        case .enumeration(let cases): return cases.cases.first?.value.description ?? "value"
        case .primitive(.int), .primitive(.int64): return "1"
        case .primitive(.bool): return "true"
        default: return "sample"
        }
    }
}
