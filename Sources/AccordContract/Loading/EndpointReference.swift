import AccordDiagnostics

/// A place in the service file that names an endpoint id (or a `prefix.*` pattern).
struct EndpointReference {
    var id: String
    /// What the name is for, in messages: "the auth refresh endpoint".
    var role: String
    var location: SourceLocation
}
