import AccordContract
import AccordJSON

/// What a plain REST API (`envelope: none`) and the kinds of auth add to the document:
/// answers as their types, errors by status, the credential's security scheme.
extension OpenAPIDocument {
    /// The security scheme of the service's credential, by name: a bearer token or an API key.
    var securityScheme: JSONValue.Member? {
        let auth = contract.service.auth
        switch auth.kind {
        case .none: return nil
        case .bearer:
            return .init(Self.bearerName, .object([
                .init("type", .string("http")), .init("scheme", .string(auth.scheme.lowercased())),
                .init("description", .string("The access token from a login endpoint, in `\(auth.header)`.")),
            ]))
        case .apiKey(let key):
            return .init(Self.apiKeyName, .object([
                .init("type", .string("apiKey")), .init("in", .string(key.location.rawValue)), .init("name", .string(key.name)),
                .init("description", .string("One of the keys the contract declares, in the \(key.location.rawValue) `\(key.name)`.")),
            ]))
        }
    }

    /// A plain API's answers: `200` with the response type itself (or the binary types,
    /// or the event stream), each error status the endpoint or a service flow answers with
    /// its entries' body types, and `default`: the error body of any other refusal.
    func plainResponses(_ endpoint: Endpoint) -> JSONValue {
        var content: [JSONValue.Member] = []
        if let types = endpoint.binary {
            content = types.map { .init($0, .object([.init("schema", .object([.init("type", .string("string")), .init("format", .string("binary"))]))])) }
        } else if endpoint.stream == nil || endpoint.body != nil {
            var ok: [JSONValue.Member] = [.init("schema", schemas.schema(endpoint.response))]
            let examples = endpoint.examples.compactMap { example -> JSONValue.Member? in
                guard example.code == 0, let response = example.response else { return nil }
                return .init(example.name, .object([.init("value", response.value)]))
            }
            if !examples.isEmpty { ok.append(.init("examples", .object(examples))) }
            content = [.init("application/json", .object(ok))]
        }
        if let stream = endpoint.stream {
            content.append(.init("text/event-stream", .object([.init("schema", .object([
                .init("type", .string("object")),
                .init("description", .string("One server-sent event: `data` is \(schemas.describe(stream.event)) JSON.")),
                .init("required", .array([.string("data")])),
                .init("properties", .object([.init("data", .object([.init("type", .string("string"))]))])),
            ]))])))
        }
        var responses: [JSONValue.Member] = [.init("200", .object([.init("description", .string("Success.")), .init("content", .object(content))]))]
        let service = contract.service
        for status in answerableCodes(of: endpoint) {
            let entries = service.codes.filter { $0.code == status }
            let types = Set(entries.compactMap { $0.data ?? service.errors.body }.map(schemas.schema))
            let description = entries.isEmpty ? "HTTP \(status)" : entries.map { "\($0.name) (\($0.flow.rawValue))" }.joined(separator: "; ")
            responses.append(.init(String(status), .object([
                .init("description", .string(description)),
                .init("content", .object([.init(service.errors.mediaType, .object([
                    .init("schema", types.count == 1 ? types.first! : types.isEmpty ? refusalSchema : .object([.init("oneOf", .array(types.sorted { JSONWriter.string($0) < JSONWriter.string($1) }))])),
                ]))])),
            ])))
        }
        responses.append(.init("default", .object([
            .init("description", .string("A refusal: unknown route or method, unsupported media type, body too large.")),
            .init("content", .object([.init(service.errors.mediaType, .object([.init("schema", .object([.init("$ref", .string("#/components/schemas/\(Self.refusalName)"))]))]))])),
        ])))
        return .object(responses)
    }
}
