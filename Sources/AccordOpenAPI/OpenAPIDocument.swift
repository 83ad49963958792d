import AccordContract
import AccordJSON
import AccordYAML

/// The contracts as an OpenAPI 3.1 document, for the rest of the ecosystem (Postman,
/// Prism, Schemathesis, swift-openapi-generator): named types as components, the
/// envelope folded into each response, business codes per operation, the signing
/// headers and `Authorization` as parameters and a security scheme, examples carried
/// over.
///
/// Each operation answers:
/// - `200`: one of the success envelope (`code` 0, `data` of the endpoint's type) or a
///   business envelope (`code` one of the codes that travel with HTTP 200);
/// - each other status the endpoint's codes travel with (400 for the violation code…);
/// - `default`: the envelope of a refusal (unknown route, body too large, a busy nonce store).
public struct OpenAPIDocument: Sendable {
    public let contract: Contract
    let schemas: SchemaTranslator
    private let unsigned: Set<String>
    private let flows: FlowCodes

    public init(contract: Contract) {
        self.contract = contract
        schemas = SchemaTranslator(closed: contract.service.validation.unknownMembers == .reject, types: contract.types)
        unsigned = contract.unsignedEndpoints
        flows = FlowCodes(service: contract.service)
    }

    /// The document as a JSON value (the YAML form is the same tree).
    public var json: JSONValue {
        let service = contract.service
        var components: [JSONValue.Member] = [
            // Generic types appear through their instances (`Page<Match>` as `Page-Match`).
            .init("schemas", .object(contract.types.keys.sorted().compactMap { name in
                contract.types[name].flatMap { $0.isGeneric ? nil : .init(SchemaTranslator.componentName(name), component($0.schema)) }
            } + [.init(Self.refusalName, refusalSchema)])),
            .init("parameters", .object(signingParameters.map { .init($0.key, $0.value) } + serviceParameters.map { .init($0.key, $0.value) })),
        ]
        if let scheme = securityScheme { components.append(.init("securitySchemes", .object([scheme]))) }
        return .object([
            .init("openapi", .string("3.1.0")),
            .init("info", .object([
                .init("title", .string(service.title ?? service.name)), .init("version", .string(service.version)),
                .init("description", .string(infoDescription)),
            ])),
            .init("servers", .array([.object([.init("url", .string(service.basePath))])])),
            .init("tags", .array(contract.domains.map { domain in
                .object([.init("name", .string(domain.name))] + (domain.description.map { [.init("description", .string($0))] } ?? []))
            })),
            .init("paths", paths),
            .init("components", .object(components)),
        ] + accordExtensions)
    }

    /// A named type's schema; an alias of another named type is `allOf` that one, so the alias keeps its own
    /// name (a component that is only a `$ref` is read as the type it names).
    private func component(_ schema: Schema) -> JSONValue {
        let written = schemas.schema(schema)
        guard case .reference = schema.kind, case .object(let members) = written, let reference = written["$ref"] else { return written }
        return .object([.init("allOf", .array([.object([.init("$ref", reference)])]))] + members.filter { $0.key != "$ref" })
    }

    static let refusalName = "Refusal"
    static let bearerName = "bearerAuth"
    static let apiKeyName = "apiKey"

    private var infoDescription: String {
        let signing = contract.service.signing
        var text = if let envelope = contract.service.envelope {
            "Every answer is an envelope `{\(envelope.code), \(envelope.message), \(envelope.data)}`; `\(envelope.code)` 0 is success."
        } else {
            "A success answers the operation's type itself; an error is an HTTP status with a `\(contract.service.errors.mediaType)` body."
        }
        if signing.isEnabled {
            text += "\n\nRequests are signed: `\(signing.signatureHeader)` = \(signing.algorithm.rawValue)("
                + signing.parts.map(\.rawValue).joined(separator: " + ") + "), lowercase hex; `\(signing.timestampHeader)` within ±\(signing.windowSeconds) s, "
                + "`\(signing.nonceHeader)` unique for \(signing.nonceTTLSeconds) s."
        }
        guard !contract.service.codes.isEmpty else { return text }
        text += "\n\n| code | name | flow | HTTP | message |\n|---|---|---|---|---|\n"
        text += contract.service.codes.map { "| \($0.code) | \($0.name) | \($0.flow.rawValue) | \($0.httpStatus) | \($0.message) |" }.joined(separator: "\n")
        return text
    }

    /// The envelope's member names (the conventional ones for a plain API, whose answers use none).
    private var envelope: Service.Envelope { contract.service.envelope ?? Service.Envelope() }

    /// Paths in contract order, each with its operations.
    private var paths: JSONValue {
        var order: [String] = []
        var operations: [String: [JSONValue.Member]] = [:]
        for endpoint in contract.endpoints {
            let path = endpoint.path.description
            if operations[path] == nil { order.append(path) }
            operations[path, default: []].append(.init(endpoint.method.rawValue.lowercased(), operation(endpoint)))
        }
        return .object(order.map { .init($0, .object(operations[$0] ?? [])) })
    }

    private func operation(_ endpoint: Endpoint) -> JSONValue {
        var members: [JSONValue.Member] = [.init("operationId", .string(endpoint.id)), .init("tags", .array([.string(endpoint.domain)]))]
        if let summary = endpoint.summary { members.append(.init("summary", .string(summary))) }
        members.append(.init("description", .string(description(of: endpoint))))
        if endpoint.isDeprecated { members.append(.init("deprecated", .bool(true))) }
        var parameters: [JSONValue] = endpoint.parameters.map { parameter($0, in: "path") } + endpoint.query.map { parameter($0, in: "query") }
        parameters += serviceParameters.map { .object([.init("$ref", .string("#/components/parameters/\($0.key)"))]) }
        parameters += endpoint.headers.map { parameter($0, in: "header") }
        if isSigned(endpoint) {
            parameters += signingParameters.map { .object([.init("$ref", .string("#/components/parameters/\($0.key)"))]) }
        }
        members.append(.init("parameters", .array(parameters)))
        if let body = endpoint.body {
            var content: [JSONValue.Member] = [.init("schema", schemas.schema(body))]
            let examples = endpoint.examples.compactMap { example in example.body.map { JSONValue.Member(example.name, .object([.init("value", $0.value)])) } }
            if !examples.isEmpty { content.append(.init("examples", .object(examples))) }
            members.append(.init("requestBody", .object([.init("required", .bool(true)),
                                                         .init("content", .object([.init("application/json", .object(content))]))])))
        } else if let parts = endpoint.multipart {
            members.append(.init("requestBody", .object([.init("required", .bool(true)),
                                                         .init("content", .object([.init("multipart/form-data", multipart(parts))]))])))
        }
        members.append(.init("responses", responses(endpoint)))
        let scheme = securityScheme.map(\.key)
        members.append(.init("security", .array(endpoint.requiresAuth ? scheme.map { [.object([.init($0, .array([]))])] } ?? [] : [])))
        if !endpoint.examples.isEmpty { members.append(.init("x-accord-examples", accordExamples(endpoint))) }
        if let stream = endpoint.stream {
            members.append(.init("x-accord-stream", .object([.init("toggle", .string(stream.toggle)), .init("event", .string(schemas.describe(stream.event)))])))
        }
        members.append(.init("x-accord-codes", .array(codes(of: endpoint).map { code in
            .object([.init("code", .int(code.code)), .init("name", .string(code.name)), .init("flow", .string(code.flow.rawValue)),
                     .init("http", .int(code.httpStatus)), .init("message", .string(code.message))])
        })))
        return .object(members)
    }

    private func description(of endpoint: Endpoint) -> String {
        var text = endpoint.description ?? endpoint.summary ?? endpoint.id
        let codes = codes(of: endpoint)
        if !codes.isEmpty {
            text += "\n\nBusiness codes: " + codes.map { "\($0.code) \($0.name) (\($0.flow.rawValue))" }.joined(separator: ", ") + "."
        }
        return text
    }

    /// The codes the endpoint declares, from the table.
    private func codes(of endpoint: Endpoint) -> [BusinessCode] {
        endpoint.codes.compactMap { contract.service.code($0) }
    }

    /// Every non-zero code the endpoint may answer: its own and the service's.
    func answerableCodes(of endpoint: Endpoint) -> [Int] {
        flows.serviceCodes.union(endpoint.codes).sorted()
    }

    private func responses(_ endpoint: Endpoint) -> JSONValue {
        if contract.service.envelope == nil { return plainResponses(endpoint) }
        var byStatus: [Int: [Int]] = [:]
        for code in answerableCodes(of: endpoint) {
            byStatus[contract.service.code(code)?.httpStatus ?? 200, default: []].append(code)
        }
        let success: JSONValue = .object([
            .init("type", .string("object")),
            .init("properties", .object([
                .init(envelope.code, .object([.init("const", .int(0))])), .init(envelope.message, .object([.init("type", .string("string"))])),
                .init(envelope.data, schemas.schema(endpoint.response)),
            ])),
            .init("required", .array([.string(envelope.code), .string(envelope.message), .string(envelope.data)])),
        ])
        var okContent: [JSONValue.Member] = [.init("schema", byStatus[200].map { .object([.init("oneOf", .array([success, businessEnvelope(codes: $0)]))]) } ?? success)]
        let examples = endpoint.examples.compactMap { example -> JSONValue.Member? in
            guard example.code == 0, let response = example.response else { return nil }
            return .init(example.name, .object([.init("value", .object([.init(envelope.code, .int(0)), .init(envelope.message, .string("ok")),
                                                                          .init(envelope.data, response.value)]))]))
        }
        if !examples.isEmpty { okContent.append(.init("examples", .object(examples))) }
        var content: [JSONValue.Member] = [.init("application/json", .object(okContent))]
        if let types = endpoint.binary {
            // The bytes of each declared type on success; the envelope (business codes) as JSON.
            if byStatus[200] != nil {
                content = [.init("application/json", .object([.init("schema", byStatus[200].map(businessEnvelope(codes:)) ?? success)]))]
            } else {
                content = []
            }
            content += types.map { .init($0, .object([.init("schema", .object([.init("type", .string("string")), .init("format", .string("binary"))]))])) }
        }
        if let stream = endpoint.stream {
            // One event's schema (what OpenAPI 3.2 calls a sequential media type's item schema, and Schemathesis checks each event against).
            let text = JSONValue.object([.init("type", .string("string"))])
            content.append(.init("text/event-stream", .object([
                .init("schema", .object([
                    .init("type", .string("object")),
                    .init("description", .string("One server-sent event: `data` is \(schemas.describe(stream.event)) JSON, the last one `[DONE]`; "
                                                  + "asked for with `\(stream.toggle): true`.")),
                    .init("required", .array([.string("data")])),
                    .init("properties", .object([.init("data", text), .init("event", text), .init("id", text),
                                                 .init("retry", .object([.init("type", .string("integer")), .init("minimum", .int(0))]))])),
                ])),
            ])))
        }
        var responses: [JSONValue.Member] = [.init("200", .object([.init("description", .string("The envelope: success, or a business code.")),
                                                                   .init("content", .object(content))]))]
        for status in byStatus.keys.sorted() where status != 200 {
            let codes = byStatus[status] ?? []
            responses.append(.init(String(status), .object([
                .init("description", .string("Business code \(codes.map(String.init).joined(separator: ", "))")),
                .init("content", .object([.init("application/json", .object([.init("schema", businessEnvelope(codes: codes))]))])),
            ])))
        }
        responses.append(.init("default", .object([
            .init("description", .string("A refusal: unknown route or method, unsupported media type, body too large, an overloaded nonce store.")),
            .init("content", .object([.init("application/json", .object([.init("schema", .object([.init("$ref", .string("#/components/schemas/\(Self.refusalName)"))]))]))])),
        ])))
        return .object(responses)
    }

    private func businessEnvelope(codes: [Int]) -> JSONValue {
        .object([
            .init("type", .string("object")),
            .init("properties", .object([
                .init(envelope.code, .object([.init("type", .string("integer")), .init("enum", .array(codes.map { .int($0) }))])),
                .init(envelope.message, .object([.init("type", .string("string"))])), .init(envelope.data, .object([])),
            ])),
            // A business code's `data` may carry details; a server may leave it out.
            .init("required", .array([.string(envelope.code), .string(envelope.message)])),
        ])
    }

    /// The body of a refusal: the envelope, or for a plain API the declared error body
    /// (an RFC 9457 problem when none is declared).
    var refusalSchema: JSONValue {
        if contract.service.envelope == nil {
            if let body = contract.service.errors.body { return schemas.schema(body) }
            let text = JSONValue.object([.init("type", .string("string"))])
            return .object([
                .init("type", .string("object")),
                .init("properties", .object([.init("type", text), .init("title", text), .init("status", .object([.init("type", .string("integer"))])),
                                             .init("detail", text)])),
                .init("required", .array([.string("type"), .string("title"), .string("status")])),
            ])
        }
        return .object([
            .init("type", .string("object")),
            .init("properties", .object([
                .init(envelope.code, .object([.init("type", .string("integer"))])), .init(envelope.message, .object([.init("type", .string("string"))])),
                .init(envelope.data, .object([])),
            ])),
            .init("required", .array([.string(envelope.code), .string(envelope.message)])),
        ])
    }

    private func isSigned(_ endpoint: Endpoint) -> Bool {
        contract.service.signing.isEnabled && !unsigned.contains(endpoint.id)
    }

    private func parameter(_ field: Field, in location: String) -> JSONValue {
        var members: [JSONValue.Member] = [.init("name", .string(field.name)), .init("in", .string(location)),
                                           .init("required", .bool(location == "path" || !field.isOptional))]
        if let description = field.schema.description { members.append(.init("description", .string(description))) }
        members.append(.init("schema", schemas.schema(field.schema)))
        return .object(members)
    }

    /// The service-wide headers, by component name.
    private var serviceParameters: [(key: String, value: JSONValue)] {
        contract.service.headers.map { ("header-" + $0.name, parameter($0, in: "header")) }
    }

    /// The four signing headers, by component name; none when the contract signs nothing.
    private var signingParameters: [(key: String, value: JSONValue)] {
        let signing = contract.service.signing
        guard signing.isEnabled else { return [] }
        let headers: [(String, String, JSONValue)] = [
            (signing.appKeyHeader, "The app key.", .object([.init("type", .string("string")), .init("enum", .array(signing.apps.keys.sorted().map { .string($0) }))])),
            (signing.timestampHeader, "Unix seconds when the request was signed.", .object([.init("type", .string("string")), .init("pattern", .string("^[0-9]{1,12}$"))])),
            // As SignatureVerifier reads it: 1 to 64 of A-Z a-z 0-9 _ -.
            (signing.nonceHeader, "A value never sent before within the nonce lifetime.",
             .object([.init("type", .string("string")), .init("pattern", .string("^[A-Za-z0-9_-]{1,64}$"))])),
            (signing.signatureHeader, "The signature, lowercase hex.", .object([.init("type", .string("string")), .init("pattern", .string("^[0-9a-f]+$"))])),
        ]
        return headers.map { name, description, schema in
            ("signing-" + name, .object([.init("name", .string(name)), .init("in", .string("header")), .init("required", .bool(true)),
                                         .init("description", .string(description)), .init("schema", schema)]))
        }
    }
}

extension OpenAPIDocument {
    /// A file format of the document.
    public enum Format: String, Sendable, CaseIterable {
        case yaml, json
    }

    /// The document in `format`, ending with a newline.
    public func rendered(as format: Format) throws(YAMLEmitter.EmitError) -> String {
        switch format {
        case .json: JSONWriter.string(json) + "\n"
        case .yaml: try YAMLEmitter.document(json)
        }
    }
}
