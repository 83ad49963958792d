import AccordDiagnostics

/// One part of a `multipart/form-data` body (`multipart:` on an endpoint): a text field
/// held to a scalar schema, or a file with a size limit and the media types it may be.
public struct MultipartPart: Sendable, Hashable {
    /// What a part carries.
    public enum Content: Sendable, Hashable {
        /// A form field: its text read as the schema's scalar (`purpose: avatar | signal`).
        case text(Schema)
        case file(FileRule)
    }

    /// The limits of a file part.
    public struct FileRule: Sendable, Hashable {
        /// The most bytes the file may have.
        public var maxSize: Int
        /// The media types it may be (`image/png`); its bytes must be what it says.
        public var contentTypes: [String]

        public init(maxSize: Int, contentTypes: [String]) {
            self.maxSize = maxSize
            self.contentTypes = contentTypes
        }
    }

    /// The part's `name` in its `Content-Disposition`.
    public var name: String
    public var content: Content
    public var isOptional: Bool
    public var description: String?
    public var location: SourceLocation

    public init(name: String, content: Content, isOptional: Bool = false, description: String? = nil, location: SourceLocation) {
        self.name = name
        self.content = content
        self.isOptional = isOptional
        self.description = description
        self.location = location
    }

    /// The file rule, for a file part.
    public var file: FileRule? {
        if case .file(let rule) = content { return rule }
        return nil
    }
}
