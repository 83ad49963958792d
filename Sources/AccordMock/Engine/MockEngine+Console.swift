import AccordConsole
import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordSigning
import AccordValidation

/// What the web console at `/__accord/ui` reads and does beyond the control API:
///
/// | call | effect |
/// |---|---|
/// | `GET /__accord/ui`, `GET /__accord/ui/{file}` | the page, its stylesheet and its script |
/// | `GET /__accord/events?session=&user=&endpoint=&status=&verdict=&replay=` | the journal as server-sent events (``JournalFeed``), the last `replay` entries first (after `Last-Event-ID` when given) |
/// | `GET /__accord/contract` | the endpoints by domain with their types, examples and fixtures; the code table; scenarios |
/// | `POST /__accord/try` `{endpoint, params?, query?, body?, token?, session?}` | the request signed here (the app secret never reaches the page), answered by this engine, both shown |
/// | `POST /__accord/sessions/{session}/scenario` `{name}` | start a scenario for a session, which its requests follow without a header |
extension MockEngine {
    static let consolePath = "/__accord/ui"

    /// What the console's page may load and reach: its own files and this server, nothing inline, no frames.
    static let consolePolicy = "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// The most entries a stream replays when it opens.
    static let replayLimit = 1_000

    /// The console's page (`/__accord/ui`) or one of its files.
    func consoleFile(_ request: MockRequest) -> MockResponse {
        if let refused = controlRefusal(request, needsToken: false) { return refused }
        let name = request.path == Self.consolePath || request.path == Self.consolePath + "/"
            ? ConsoleAssets.pageName : String(request.path.dropFirst(Self.consolePath.count + 1))
        guard request.method == "GET" || request.method == "HEAD", let asset = ConsoleAssets.asset(named: name) else {
            return controlError(404, "no_such_file", "the console has no file '\(name)'")
        }
        return MockResponse(status: 200, headers: [("Content-Type", asset.contentType), ("Content-Security-Policy", Self.consolePolicy),
                                                   ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
                                                   ("Cache-Control", "no-store")],
                            body: .bytes(asset.bytes), summary: .init(verdict: .control))
    }

    /// `GET /__accord/events`: the journal's entries as they come.
    func eventStream(_ request: MockRequest) throws(StorageError) -> MockResponse {
        let filter: JournalFilter
        do {
            filter = try JournalFilter(query: request.query)
        } catch {
            return controlError(400, "invalid_filter", error.message)
        }
        let replayText = request.query.first { $0.name == "replay" }?.value
        guard let replay = replayText.map({ Int($0) }) ?? 100, (0...Self.replayLimit).contains(replay) else {
            return controlError(400, "invalid_replay", "'replay' takes a number from 0 to \(Self.replayLimit), found '\(replayText ?? "")'")
        }
        let newest = try (state.journal as? any SharedJournalStorage)?.newestSequence() ?? 0
        var backlog = try state.journal.entries(matching: filter, limit: Self.replayLimit)
        if let last = request.headers["last-event-id"] {
            guard let sequence = Int(last) else { return controlError(400, "invalid_last_event_id", "Last-Event-ID is a sequence number, found '\(last)'") }
            backlog = backlog.filter { $0.sequence > sequence }
        } else {
            backlog = Array(backlog.suffix(replay))
        }
        do {
            let pipe = try state.events.subscribe(filter: filter, replay: backlog, after: newest)
            return MockResponse(status: 200, headers: [("Content-Type", "text/event-stream; charset=utf-8"), ("Cache-Control", "no-store"),
                                                       ("X-Accel-Buffering", "no"), ("Content-Security-Policy", Self.answerPolicy),
                                                       ("X-Content-Type-Options", "nosniff")],
                                body: .stream(pipe), summary: .init(verdict: .control))
        } catch {
            return controlError(429, "too_many_streams", "\(error.limit) event streams are open already, the most the server keeps; close one")
        }
    }

    /// `GET /__accord/contract`: what the console's contract view and pickers show.
    var consoleContract: JSONValue {
        let service = contract.service
        let domains = Dictionary(grouping: contract.endpoints, by: \.domain).sorted { $0.key < $1.key }.map { domain, endpoints in
            JSONValue.object([.init("name", .string(domain)), .init("endpoints", .array(endpoints.map(endpointJSON)))])
        }
        let codes = service.codes.sorted { $0.code < $1.code }.map { code in
            JSONValue.object([.init("code", .int(code.code)), .init("name", .string(code.name)), .init("message", .string(code.message)),
                              .init("flow", .string(code.flow.rawValue)), .init("http_status", .int(code.httpStatus))])
        }
        return .object([
            .init("service", .object([.init("name", .string(service.name)), .init("base_path", .string(service.basePath)),
                                      .init("signing", .bool(options.verifiesSignatures && service.signing.isEnabled)),
                                      .init("login", .array(service.auth.loginEndpoints.map(JSONValue.string)))])),
            .init("domains", .array(domains)),
            .init("codes", .array(codes)),
            .init("scenarios", .array(scenarios.keys.sorted().map(JSONValue.string))),
            .init("collections", .array(collections.keys.sorted().map(JSONValue.string))),
            .init("verdicts", .array(Verdict.allCases.map { .string($0.rawValue) })),
            .init("types", .object(contract.types.keys.sorted().compactMap { name in contract.types[name].map { .init(name, Self.typeJSON($0.schema)) } })),
            // What "try it" sends unless told otherwise: each service header's default, else a value it admits.
            .init("headers", .object(((try? ContractRequest.Builder(contract: contract))?.serviceHeaders ?? []).map { .init($0.name, .string($0.value)) })),
        ])
    }

    /// A named type as the console expands it: an object's members, an enum's values,
    /// a union's shapes, or what it stands for.
    static func typeJSON(_ schema: Schema) -> JSONValue {
        switch schema.kind {
        case .object(let fields):
            return .object([.init("kind", .string("object")), .init("fields", .array(fields.map { field in
                .object([.init("name", .string(field.name)), .init("type", .string(SchemaText.of(field.schema))), .init("optional", .bool(field.isOptional)),
                         .init("nullable", .bool(field.isNullable))])
            }))])
        case .enumeration(let cases):
            return .object([.init("kind", .string("enum")), .init("values", .array(cases.cases.map { .string($0.value.description) }))])
        case .union(let union):
            return .object([.init("kind", .string("union")), .init("discriminator", .string(union.discriminator)),
                            .init("shapes", .array(union.cases.map { .object([.init("value", .string($0.value)), .init("type", .string($0.typeName))]) }))])
        default:
            return .object([.init("kind", .string("alias")), .init("of", .string(SchemaText.of(schema)))])
        }
    }

    private func endpointJSON(_ endpoint: Endpoint) -> JSONValue {
        let fields = { (list: [Field]) in
            JSONValue.array(list.map { field in
                .object([.init("name", .string(field.name)), .init("type", .string(SchemaText.of(field.schema))),
                         .init("optional", .bool(field.isOptional))])
            })
        }
        var members: [JSONValue.Member] = [
            .init("id", .string(endpoint.id)), .init("method", .string(endpoint.method.rawValue)), .init("path", .string(endpoint.path.description)),
            .init("auth", .bool(endpoint.requiresAuth)), .init("deprecated", .bool(endpoint.isDeprecated)),
            .init("params", fields(endpoint.parameters)), .init("query", fields(endpoint.query)),
            .init("response", .string(endpoint.binary.map { "binary (\($0.joined(separator: ", ")))" } ?? SchemaText.of(endpoint.response))),
            .init("codes", .array(endpoint.codes.map(JSONValue.int))),
            .init("fixtures", .array((fixtureLabels[endpoint.id] ?? []).map { .string(String($0.dropFirst("fixture:".count))) })),
        ]
        if let summary = endpoint.summary { members.append(.init("summary", .string(summary))) }
        if let body = endpoint.body { members.append(.init("body", .string(SchemaText.of(body)))) }
        if let parts = endpoint.multipart { members.append(.init("multipart", .array(parts.map { .string($0.name) }))) }
        members.append(.init("examples", .array(endpoint.examples.map { example in
            var fields: [JSONValue.Member] = [.init("name", .string(example.name)), .init("code", .int(example.code))]
            if let value = example.parameters?.value { fields.append(.init("params", value)) }
            if let value = example.query?.value { fields.append(.init("query", value)) }
            if let value = example.body?.value { fields.append(.init("body", value)) }
            if let value = example.response?.value { fields.append(.init("response", value)) }
            return .object(fields)
        })))
        return .object(members)
    }

    /// `POST /__accord/try`: a request to one endpoint, signed with the contract's
    /// development app here, answered by this engine (and journaled like any other);
    /// with `"curl": true`, the curl command line that sends it instead.
    func tryRequest(_ call: ControlCall) throws(StorageError) -> MockResponse {
        let body = call.body
        guard case .string(let id)? = body["endpoint"], let endpoint = contract.endpoints.first(where: { $0.id == id }) else {
            return controlError(400, "invalid_try", "give {\"endpoint\": ID, \"params\"?, \"query\"?, \"body\"?, \"headers\"?, \"token\"?, \"session\"?, "
                                + "\"curl\"?} with an endpoint of the contracts")
        }
        let text = { (name: String) -> String? in if case .string(let value)? = body[name], !value.isEmpty { value } else { nil } }
        var given: [String: String] = [:]
        if case .object(let headers)? = body["headers"] {
            for header in headers { if case .string(let value) = header.value { given[header.key] = value } }
        }
        let values = ConsoleRequest(endpoint: endpoint, parameters: body["params"], query: body["query"], body: body["body"].flatMap { $0 == .null ? nil : $0 },
                                    headers: given, token: text("token"), session: text("session") ?? "console")
        return try send(values, curl: body["curl"] == .bool(true) ? publicOrigin(call.request) : nil)
    }

    /// What the console asks to send to one endpoint.
    struct ConsoleRequest {
        var endpoint: Endpoint
        var parameters: JSONValue?
        var query: JSONValue?
        var body: JSONValue?
        /// Service headers, by name, over the contract's own values.
        var headers: [String: String]
        var token: String?
        var session: String
    }

    /// Signs `values` here and answers it (what was sent and what came back), or, given
    /// the server's origin, answers the curl command line that would send it.
    func send(_ values: ConsoleRequest, curl origin: String?) throws(StorageError) -> MockResponse {
        let builder: ContractRequest.Builder
        do {
            builder = try ContractRequest.Builder(contract: contract, given: values.headers)
        } catch {
            return controlError(409, "cannot_sign", error.message)
        }
        let nonce = SecureRandom.hex(16)
        let built = builder.request(to: values.endpoint, parameters: values.parameters, query: values.query, body: values.body,
                                    accessToken: values.token, timestamp: try state.clock.wallNow, nonce: nonce)
        var headers = built.headers
        headers.append(("X-Accord-Session", values.session))
        let sentBody: JSONValue = built.body.isEmpty ? .null : ((try? JSONReader.read(built.body)) ?? .string("(\(built.body.count) bytes of a form)"))
        if let origin {
            let data: CurlCommand.Body = built.body.isEmpty ? .none : .data(String(decoding: built.body, as: UTF8.self))
            let line = CurlCommand.line(method: built.method, url: origin + CurlCommand.encodedTarget(built.target), headers: headers, body: data)
            return controlAnswer(.object([.init("curl", .string(line))]))
        }
        let response = pipeline.run(MockRequest(method: built.method, target: built.target, headers: headers, body: built.body))
        let sent: [JSONValue.Member] = [
            .init("method", .string(built.method)), .init("target", .string(built.target)),
            .init("headers", .object(headers.map { .init($0.0, .string($0.1)) })), .init("body", sentBody),
        ]
        let bytes = response.bodyBytes
        let answered: [JSONValue.Member] = [
            .init("status", .int(response.status)),
            .init("headers", .object(response.headers.map { .init($0.name, .string($0.value)) })),
            .init("body", (try? JSONReader.read(bytes)) ?? .string(String(decoding: bytes.prefix(JournalEntry.Body.limit), as: UTF8.self))),
        ]
        return controlAnswer(.object([.init("request", .object(sent)), .init("response", .object(answered))]))
    }

    /// `POST /__accord/replay` `{seq, token?, curl?}`: journal entry `seq` sent again,
    /// signed afresh (new time and nonce) with its path parameters, query, body, service
    /// headers and session; the token, masked in the journal, is the one given. With
    /// `"curl": true`, the curl command line instead.
    func replayRequest(_ call: ControlCall) throws(StorageError) -> MockResponse {
        guard case .int(let sequence)? = call.body["seq"] else {
            return controlError(400, "invalid_replay", "give {\"seq\": N, \"token\"?, \"curl\"?}: the journal entry to send again")
        }
        guard let entry = try state.journal.entry(sequence: sequence) else {
            return controlError(404, "no_such_request", "the journal holds no request #\(sequence)")
        }
        guard let id = entry.endpoint, let endpoint = contract.endpoints.first(where: { $0.id == id }) else {
            return controlError(409, "cannot_replay", "request #\(sequence) reached no endpoint of the contracts")
        }
        guard case .json(let body)? = entry.body ?? .json(.null) else {
            return controlError(409, "cannot_replay", "the journal kept only the size of request #\(sequence)'s body")
        }
        let pairs = { (list: [(name: String, value: String)]) in JSONValue.object(list.map { .init($0.name, .string($0.value)) }) }
        let token = if case .string(let text)? = call.body["token"], !text.isEmpty { text } else { String?.none }
        let values = ConsoleRequest(endpoint: endpoint, parameters: pairs(entry.parameters), query: pairs(entry.query), body: body == .null ? nil : body,
                                    headers: Dictionary(entry.headers.map { ($0.name, $0.value) }, uniquingKeysWith: { $1 }), token: token,
                                    session: entry.session)
        return try send(values, curl: call.body["curl"] == .bool(true) ? publicOrigin(call.request) : nil)
    }

    private func publicOrigin(_ request: MockRequest) -> String {
        options.publicOrigin.origin(for: request)
    }
}

/// A schema as the console writes it: `string`, `[Signal]`, `Page<Match>`, `{id: int, note?: string}`.
enum SchemaText {
    static func of(_ schema: Schema) -> String {
        switch schema.kind {
        case .primitive(let primitive): primitive.rawValue
        case .array(let item): "[\(of(item))]"
        case .map(let value): "{string: \(of(value))}"
        case .reference(let name): name
        case .object(let fields): "{" + fields.map { "\($0.name)\($0.isOptional ? "?" : ""): \(of($0.schema))" }.joined(separator: ", ") + "}"
        case .enumeration(let cases): cases.cases.map(\.value.description).joined(separator: " | ")
        case .union(let union): union.cases.map(\.typeName).joined(separator: " | ") + " (by \(union.discriminator))"
        }
    }
}
