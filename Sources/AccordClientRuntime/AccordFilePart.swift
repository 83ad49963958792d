import Foundation

/// A file sent as one part of a `multipart/form-data` body, read from disk as it is
/// sent: a photo from the picker is never loaded whole into memory.
public nonisolated struct FilePart: Sendable, Hashable {
    public var fileURL: URL
    /// The name the server sees (`Content-Disposition: …; filename=`).
    public var filename: String
    /// The media type it is sent as (`image/jpeg`); the mock checks the bytes agree.
    public var contentType: String

    public init(fileURL: URL, filename: String? = nil, contentType: String) {
        self.fileURL = fileURL
        self.filename = filename ?? fileURL.lastPathComponent
        self.contentType = contentType
    }
}
