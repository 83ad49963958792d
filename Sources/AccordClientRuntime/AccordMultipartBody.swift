import Foundation

/// A `multipart/form-data` body: text fields, signed as query items are, and files,
/// which the signature does not cover.
public nonisolated struct MultipartBody: Sendable {
    public var fields: [QueryItem]
    public var files: [(name: String, file: FilePart)]
    /// Unique per body, so no file's bytes can contain it by chance.
    public let boundary: String

    public init(fields: [QueryItem], files: [(name: String, file: FilePart)]) {
        self.fields = fields
        self.files = files
        boundary = "accord-" + UUID().uuidString
    }

    /// The `Content-Type` header of the body.
    public var contentType: String { "multipart/form-data; boundary=\(boundary)" }

    /// The bytes copied from a file at a time.
    static let chunkSize = 64 << 10

    /// Writes the body to a new temporary file, copying each file in chunks; the caller
    /// removes it.
    func writeToTemporaryFile() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("accord-upload-\(UUID().uuidString)")
        guard FileManager.default.createFile(atPath: url.path, contents: nil) else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path]) }
        let output = try FileHandle(forWritingTo: url)
        defer { try? output.close() }
        for field in fields {
            try output.write(contentsOf: Data(head(name: field.name, filename: nil, contentType: nil).utf8))
            try output.write(contentsOf: Data(field.value.utf8) + Data("\r\n".utf8))
        }
        for (name, file) in files {
            try output.write(contentsOf: Data(head(name: name, filename: file.filename, contentType: file.contentType).utf8))
            let input = try FileHandle(forReadingFrom: file.fileURL)
            defer { try? input.close() }
            while let chunk = try input.read(upToCount: Self.chunkSize), !chunk.isEmpty {
                try output.write(contentsOf: chunk)
            }
            try output.write(contentsOf: Data("\r\n".utf8))
        }
        try output.write(contentsOf: Data("--\(boundary)--\r\n".utf8))
        return url
    }

    private func head(name: String, filename: String?, contentType: String?) -> String {
        var head = "--\(boundary)\r\nContent-Disposition: form-data; name=\"\(Self.quoted(name))\""
        if let filename { head += "; filename=\"\(Self.quoted(filename))\"" }
        head += "\r\n"
        if let contentType { head += "Content-Type: \(contentType)\r\n" }
        return head + "\r\n"
    }

    /// Quotes and backslashes escaped, line breaks dropped: a name cannot end its header.
    private static func quoted(_ text: String) -> String {
        text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\r", with: "").replacingOccurrences(of: "\n", with: "")
    }
}
