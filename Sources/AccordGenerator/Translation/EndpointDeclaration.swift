import AccordContract
import AccordDiagnostics

/// One endpoint's functions as the generated code declares them, every name and type
/// decided: what ``EndpointRenderer`` writes without looking at the contract again.
struct EndpointDeclaration: Sendable {
    /// A parameter of the endpoint's function: `job_id: String`, `_ body: LoginRequest`, `cursor: String? = nil`.
    struct Parameter: Sendable {
        /// The label and name as written (`_ body`, `cursor`).
        var name: String
        var type: String
        var defaultValue: String? = nil
    }

    /// How a value the call sends as text (a path segment, a query item, a header, a text
    /// part) becomes that text.
    enum TextForm: Sendable {
        /// A `String` already.
        case string
        /// `URL.absoluteString`.
        case url
        /// `true` or `false`.
        case bool
        /// `String(value)`: an integer or a double.
        case number
        /// The runtime value's `text` (a decimal, a date-time).
        case text
        /// `description` (a date).
        case description
        /// An enum's raw value; an integral one is written as a number.
        case rawValue(isIntegral: Bool)
        /// `String(describing:)`, for anything else.
        case describing
    }

    /// A value sent as text under a wire name: a query item, a header or a multipart text part.
    struct Item: Sendable {
        var wireName: String
        /// The function parameter holding it (escaped where it is a keyword).
        var variable: String
        var form: TextForm
        var isOptional: Bool
        /// An array sends one item per element.
        var isArray: Bool
    }

    /// A segment of the request's path.
    enum PathSegment: Sendable {
        case literal(String)
        /// The parameter `variable`, sent as text; nil when the contract's template names no parameter of that name.
        case parameter(variable: String?, form: TextForm)
    }

    /// A multipart file part: its wire name and the `FilePart` parameter that holds it.
    struct FilePart: Sendable {
        var wireName: String
        var variable: String
        var isOptional: Bool
    }

    /// The same call asking for server-sent events.
    struct Stream: Sendable {
        /// `chatStream`.
        var function: String
        var eventType: String
        /// The body member that asks for the stream, as a Swift property.
        var toggle: String
        var documentation: Declaration.Documentation
    }

    var id: String
    /// `get`, `post`: the runtime's `HTTPMethod` case.
    var method: String
    /// `inbox`, `` `import` ``.
    var function: String
    var documentation: Declaration.Documentation
    var isDeprecated: Bool
    var parameters: [Parameter]
    var bodyType: String?
    var responseType: String
    var path: [PathSegment]
    var query: [Item]
    var headers: [Item]
    /// A multipart body's text and file parts; nil for any other body.
    var multipart: (text: [Item], files: [FilePart])?
    var requiresAuth: Bool
    var retriesFaults: Bool?
    var stream: Stream?
    /// A warning at every value whose parameter had to be renamed (``EndpointValueNames``).
    var renames: [Diagnostic] = []
}

/// One domain's endpoints: `API.signal`, the struct `SignalEndpoints` and the types its
/// parameters need.
struct DomainDeclaration: Sendable {
    var name: String
    /// `signal`: the property on `API`.
    var property: String
    /// `SignalEndpoints`.
    var structName: String
    /// `API+Signal.swift`.
    var fileName: String
    /// The contract file it comes from, without directories.
    var sourceFile: String
    var documentation: Declaration.Documentation
    var endpoints: [EndpointDeclaration]
    /// Enums and objects written inline in parameters, nested in the struct.
    var nested: [Declaration]
    /// A warning when the domain's property had to be renamed (``Naming/domainProperty(_:)``).
    var renames: [Diagnostic] = []
}
