import AccordDiagnostics

/// One operation of the API, identified by a stable dotted id such as `signal.publish`.
public struct Endpoint: Sendable, Hashable {
    /// An HTTP method the contract format accepts.
    public enum Method: String, Sendable, Hashable, CaseIterable {
        case get = "GET", post = "POST", put = "PUT", patch = "PATCH", delete = "DELETE"
    }

    public var id: String
    /// The domain whose file declares it.
    public var domain: String
    public var method: Method
    /// The path below the service's base path.
    public var path: PathTemplate
    public var summary: String?
    public var description: String?
    /// Whether a bearer access token is required.
    public var requiresAuth: Bool
    public var isDeprecated: Bool
    /// Whether a call that met a fault is retried (`retry:`); nil for the service's
    /// retry policy, which retries its idempotent methods.
    public var retriesFaults: Bool?
    /// Typed path parameters, one per `{name}` in the path.
    public var parameters: [Field]
    public var query: [Field]
    /// Headers beyond the service-wide ones.
    public var headers: [Field]
    public var body: Schema?
    /// A `multipart/form-data` body instead of a JSON one, part by part.
    public var multipart: [MultipartPart]?
    /// The media types of a success answer that is bytes, not an envelope (`image/png`,
    /// `image/*`): a served file. Failures still answer the envelope. Nil for JSON answers.
    public var binary: [String]?
    /// The envelope's `data` on success.
    public var response: Schema
    /// The streamed form of the response, if the endpoint can stream.
    public var stream: Stream?
    /// Business codes (besides 0 and the service-wide ones) this endpoint can answer.
    public var codes: [Int]
    public var examples: [Example]
    /// Where the endpoint's id was written.
    public var location: SourceLocation

    public init(
        id: String, domain: String, method: Method, path: PathTemplate,
        summary: String? = nil, description: String? = nil, requiresAuth: Bool = true, isDeprecated: Bool = false,
        parameters: [Field] = [], query: [Field] = [], headers: [Field] = [], body: Schema? = nil,
        response: Schema, stream: Stream? = nil, codes: [Int] = [], examples: [Example] = [],
        location: SourceLocation
    ) {
        self.id = id
        self.domain = domain
        self.method = method
        self.path = path
        self.summary = summary
        self.description = description
        self.requiresAuth = requiresAuth
        self.isDeprecated = isDeprecated
        self.parameters = parameters
        self.query = query
        self.headers = headers
        self.body = body
        self.response = response
        self.stream = stream
        self.codes = codes
        self.examples = examples
        self.location = location
    }
}

extension Endpoint {
    /// A `text/event-stream` form of the response, chosen by a boolean member of the body.
    public struct Stream: Sendable, Hashable {
        /// The body member that asks for streaming (`stream: true`).
        public var toggle: String
        /// The type of each event's JSON data; the stream ends with `[DONE]`.
        public var event: Schema

        public init(toggle: String, event: Schema) {
            self.toggle = toggle
            self.event = event
        }
    }

    /// A named, complete request and the answer the service gives to it.
    public struct Example: Sendable, Hashable {
        public var name: String
        public var parameters: SourcedJSON?
        public var query: SourcedJSON?
        public var body: SourcedJSON?
        /// The business code answered; 0 for success.
        public var code: Int
        /// The envelope's `data`.
        public var response: SourcedJSON?
        public var location: SourceLocation

        public init(
            name: String, parameters: SourcedJSON? = nil, query: SourcedJSON? = nil, body: SourcedJSON? = nil,
            code: Int = 0, response: SourcedJSON? = nil, location: SourceLocation
        ) {
            self.name = name
            self.parameters = parameters
            self.query = query
            self.body = body
            self.code = code
            self.response = response
            self.location = location
        }
    }
}

extension Endpoint {
    /// Every schema the endpoint declares: path parameters, query, headers, body,
    /// multipart text parts, response and stream events.
    public var schemas: [Schema] {
        var schemas = (parameters + query + headers + textParts).map(\.schema)
        if let body { schemas.append(body) }
        schemas.append(response)
        if let event = stream?.event { schemas.append(event) }
        return schemas
    }

    /// The text parts of a multipart body as fields (read like query parameters); none
    /// without one.
    public var textParts: [Field] {
        (multipart ?? []).compactMap { part in
            guard case .text(let schema) = part.content else { return nil }
            return Field(name: part.name, schema: schema, isOptional: part.isOptional, location: part.location)
        }
    }
}
