import AccordContract
import AccordHTTP
import AccordJSON
import AccordMocksFormat
import Foundation

/// What a template can read while one response is rendered.
public struct TemplateContext: Sendable {
    public var request: MockRequest
    public var parameters: [String: String]
    /// The path parameters declared as integers: `{{request.path.uid}}` is the number 20033, not the text.
    public var integerParameters: Set<String> = []
    public var body: JSONValue?
    /// The mock clock, in Unix seconds.
    public var now: Int64
    public var state: MockState
    /// The token pair issued with this answer, if it is a login or refresh.
    public var issued: TokenPair?
    /// The uid the request's access token belongs to.
    public var user: Int?
    /// The record an effect inserted, updated or read.
    public var record: JSONValue?
    /// The records the fixture's `when: {state: …}` conditions found, by collection.
    public var found: [String: JSONValue] = [:]
    /// The files of the request's multipart parts as stored, by part: `{id, url, size, content_type}`.
    public var uploads: [String: JSONValue] = [:]
    /// A signed direct-upload policy (`{{upload_policy…}}`), when the request asked for one.
    public var uploadPolicy: JSONValue?

    public init(request: MockRequest, parameters: [String: String], body: JSONValue?, now: Int64, state: MockState) {
        self.request = request
        self.parameters = parameters
        self.body = body
        self.now = now
        self.state = state
    }

    /// The value of `expression` as JSON (strings for request parts and times).
    public func value(of expression: TemplateExpression) throws(StorageError) -> JSONValue {
        switch expression {
        case .pathParameter(let name):
            if integerParameters.contains(name), let number = parameters[name].flatMap({ Int($0) }) { .int(number) }
            else { .string(parameters[name] ?? "") }
        case .query(let name): .string(request.query.first { $0.name == name }?.value ?? "")
        case .header(let name): .string(request.header(name) ?? "")
        case .body(let pointer): body?.value(at: pointer) ?? .null
        case .uuid: .string(state.uuid())
        case .now(let offset): .string(RFC3339.format(unixSeconds: now + offset))
        case .timestamp: .int(Int(now))
        case .sequence: .int(try state.nextSequence())
        case .random(let range): .int(state.random(in: range))
        case .user: user.map { .int($0) } ?? .null
        case .record(let pointer): record.flatMap(pointer.value) ?? .null
        case .found(let collection, let pointer): found[collection].flatMap(pointer.value) ?? .null
        case .upload(let part, let pointer): uploads[part].flatMap(pointer.value) ?? .null
        case .uploadPolicy(let pointer): uploadPolicy.flatMap(pointer.value) ?? .null
        case .issued(let field):
            switch (field, issued) {
            case (.accessToken, let pair?): .string(pair.accessToken)
            case (.refreshToken, let pair?): .string(pair.refreshToken)
            case (.accessExpiresIn, let pair?): .int(pair.accessExpiresIn)
            case (.refreshExpiresIn, let pair?): .int(pair.refreshExpiresIn)
            case (_, nil): .null
            }
        }
    }
}
