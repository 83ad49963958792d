import Foundation

/// Everything needed to call one endpoint; usable with any transport.
public nonisolated struct Endpoint<Response: Decodable & Sendable>: Sendable {
    /// The contract's stable id, such as `signal.publish`.
    public var id: String
    public var method: HTTPMethod
    /// The path below the base path, parameters filled and escaped.
    public var path: String
    public var query: [QueryItem]
    public var headers: [QueryItem]
    /// The JSON body, if the endpoint takes one.
    public var body: (any Encodable & Sendable)?
    /// The `multipart/form-data` body, if the endpoint takes one instead.
    public var multipart: MultipartBody?
    /// Whether a bearer access token is required.
    public var requiresAuth: Bool
    /// Whether a call that met a fault is retried whatever its method (`retry:` in the
    /// contract); nil for the ``RetryPolicy``'s methods.
    public var retriesFaults: Bool?

    public init(id: String, method: HTTPMethod, path: String, query: [QueryItem] = [], headers: [QueryItem] = [],
                body: (any Encodable & Sendable)? = nil, multipart: MultipartBody? = nil, requiresAuth: Bool, retriesFaults: Bool? = nil) {
        self.retriesFaults = retriesFaults
        self.id = id
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.multipart = multipart
        self.requiresAuth = requiresAuth
    }

    /// A path parameter, percent-encoded as one segment. `.` and `..` are encoded too
    /// (`%2E`): as they are, the HTTP stack would remove them as dot-segments and call
    /// another path.
    public static func segment(_ value: String) -> String {
        if value == "." || value == ".." { return String(repeating: "%2E", count: value.count) }
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "/")
        return value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value
    }

    /// The path made of `pieces` in order: the literal text between parameters, and each
    /// parameter as ``segment(_:)`` encoded it. The generated endpoints call this rather
    /// than interpolate, which the type checker resolves at a fraction of the cost.
    public static func joinedPath(_ pieces: String...) -> String {
        pieces.joined()
    }

    /// A query name or value with everything but RFC 3986's unreserved characters
    /// percent-encoded (`+`, `&`, `=`, `/`, spaces and non-ASCII included).
    public static func queryComponent(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: unreserved) ?? value
    }

    private static var unreserved: CharacterSet {
        CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~")
    }
}
