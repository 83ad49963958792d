/// Names one endpoint (`signal.publish`), every endpoint under a prefix (`signal.*`),
/// or all of them (`*`), as signing exemptions, injection rules and scenarios do.
public enum EndpointPattern {
    /// Whether `pattern` names the endpoint `id`.
    public static func matches(_ pattern: String, _ id: String) -> Bool {
        pattern == "*" || pattern == id || (pattern.hasSuffix(".*") && id.hasPrefix(pattern.dropLast()))
    }
}
