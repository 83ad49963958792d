/// Media types as contracts list them (`multipart` file parts, `binary` answers).
public enum MediaTypes {
    /// Whether `type` is one of `allowed`; `image/*` admits every image type.
    public static func matches(_ type: String, _ allowed: [String]) -> Bool {
        allowed.contains { pattern in
            pattern == type || (pattern.hasSuffix("/*") && type.count > pattern.count - 1 && type.hasPrefix(pattern.dropLast()))
        }
    }
}
