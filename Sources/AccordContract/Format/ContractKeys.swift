import AccordJSON

/// The contract format's mappings and their keys (docs/contract-format.md): what the
/// loader accepts, and what `accord schema contracts` writes.
public enum ContractKeys {
    public static let serviceFile = KeyTable("service-file", "A service file: the service, its signing, auth, headers and code table.", required: ["service"], [
        .init("service", .table(service.name), "The service's name, version, base path and envelope."),
        .init("errors", .table(errors.name), "Without an envelope: the media type and body of error answers.", only: .plain),
        .init("signing", .table(signing.name), "How requests are signed (X-Sign), and which endpoints are exempt."),
        .init("auth", .either([.words(["none"]), .table(auth.name)]), "Bearer tokens (login, refresh, logout, lifetimes), an API key, or none."),
        .init("headers", .map(.type), "Headers every request carries, by name, with their types."),
        .init("validation", .table(validation.name), "How refused requests are answered."),
        .init("swift", .table(swift.name), "How the generated Swift spells names."),
        .init("flows", .table(flows.name), "The retry policy for faults, the alert window and what a banned user may call."),
        .init("codes", codeTable, "The business codes (or, without an envelope, HTTP error statuses) and the flow each triggers."),
        .init("types", .map(.table("named-type")), "Types the code table's payloads use."),
    ])

    public static let service = KeyTable("service", "The service.", required: ["name"], [
        .init("name", .text, "The service's name."),
        .init("title", .text, "A title for documentation."),
        .init("version", .textOrNumber, "The contract's version (1.0.0 by default)."),
        .init("base_path", .text, "The path every route is under, such as /api/v1."),
        .init("envelope", .either([.words(["none"]), .table(envelope.name)]), "The member names of the {code, msg, data} envelope, or 'none' for a plain REST API."),
    ])

    public static let envelope = KeyTable("envelope", "The envelope's member names.", [
        .init("code", .text, "The business code's member (code)."), .init("msg", .text, "The message's member (msg)."),
        .init("data", .text, "The payload's member (data)."),
    ])

    public static let signing = KeyTable("signing", "Request signing.", [
        .init("enabled", .boolean, "false turns signing off."),
        .init("algorithm", .words(SigningRule.Algorithm.allCases.map(\.rawValue)), "The digest (md5 by default)."),
        .init("parts", .list(.words(SigningRule.Part.allCases.map(\.rawValue))), "What the string to sign joins, in order."),
        .init("apps", .map(.text), "App keys and their secrets."),
        .init("headers", .table(signingHeaders.name), "The signing headers' names."),
        .init("window", .textOrNumber, "How far a timestamp may be from the server's clock (300s)."),
        .init("nonce_ttl", .textOrNumber, "How long a nonce is remembered (600s)."),
        .init("exempt", .list(.text), "Endpoints (or patterns such as app.*) sent unsigned."),
    ])

    public static let signingHeaders = KeyTable("signing-headers", "The signing headers' names.", [
        .init("app_key", .text, "X-App-Key by default."), .init("timestamp", .text, "X-Timestamp by default."),
        .init("nonce", .text, "X-Nonce by default."), .init("sign", .text, "X-Sign by default."),
    ])

    public static let auth = KeyTable("auth", "How a client proves who it is.", [
        .init("header", .text, "The header the access token travels in (Authorization)."),
        .init("scheme", .text, "The word before the token (Bearer)."),
        .init("access_ttl", .textOrNumber, "How long an access token lives (2h)."),
        .init("refresh_ttl", .textOrNumber, "How long a refresh token lives (30d)."),
        .init("refresh", .text, "The refresh endpoint."),
        .init("login", .either([.text, .list(.text)]), "The endpoints that log in and answer tokens."),
        .init("logout", .text, "The logout endpoint."),
        .init("api_key", .table(apiKey.name), "An API key instead of tokens."),
    ])

    public static let apiKey = KeyTable("api-key", "An API key sent with every request that needs one.", [
        .init("header", .text, "The header it travels in."), .init("query", .text, "Or the query parameter."),
        .init("keys", .list(.text), "The keys the mock accepts."),
    ])

    public static let validation = KeyTable("validation", "How refused requests are answered.", [
        .init("unknown_members", .words(["reject", "ignore"]), "Whether a body member the contract does not declare is refused."),
        .init("violation_code", .integer, "With an envelope: the business code of a refused request.", only: .enveloped),
        .init("status", .integer, "Without an envelope: the HTTP status of a refused request (422).", only: .plain),
    ])

    public static let swift = KeyTable("swift", "How the generated Swift spells names.", [
        .init("acronyms", .list(.text), "Words written in capitals (kb_id → kbID)."),
        .init("namespace", .text, "The enum every generated name is nested in (Tongban → Tongban.API), as accord generate --namespace."),
    ])

    public static let flows = KeyTable("flows", "What the flow rules hold a client to beyond the code table.", [
        .init("retry", .table(retry.name), "How a call that met a fault (reset, timeout, 5xx) is retried."),
        .init("alert_window", .textOrNumber, "How long after an alert code the same call may not be sent again (2s)."),
        .init("allowed_while_banned", .list(.text), "The endpoints (or patterns) a banned user may call (the logins, the logout and public endpoints)."),
    ])

    public static let retry = KeyTable("retry", "The retry policy for faults.", [
        .init("attempts", .integer, "Retries after the first try, 0 to \(Service.RetryPolicy.attemptLimit) (2)."),
        .init("backoff", .textOrNumber, "The wait before the first retry, doubled before each next one (200ms)."),
        .init("max_backoff", .textOrNumber, "The longest wait (2s)."),
        .init("methods", .list(.words(Service.RetryPolicy.methodNames)), "The methods retried (GET, HEAD, OPTIONS, PUT, DELETE)."),
    ])

    public static let errors = KeyTable("errors", "The error answers of an API without an envelope.", [
        .init("media_type", .text, "Their media type (application/problem+json)."), .init("body", .type, "Their body's type."),
    ])

    public static let code = KeyTable("code", "One code of the table.", required: ["name"], [
        .init("name", .text, "A kebab-case name, usable wherever a code is."),
        .init("msg", .text, "The envelope's message."),
        .init("flow", .words(BusinessCode.Flow.allCases.map(\.rawValue)), "What a correct client does when answered it."),
        .init("http", .integer, "With an envelope: the HTTP status it travels with (200).", only: .enveloped),
        .init("when", .map(.text), "Without an envelope: the error body's member and value that tell this entry from its status's others.", only: .plain),
        .init("description", .text, "Documentation."),
        .init("data", .type, "The payload it travels with."),
    ])

    /// A `codes:` table: code (or status) → entry, or a list of entries told apart by `when`.
    static let codeTable = KeyTable.Value.map(.either([.table(code.name), .list(.table(code.name))]))

    public static let domainFile = KeyTable("domain-file", "A domain file: its types, endpoints and own codes.", required: ["domain"], [
        .init("domain", .text, "The domain's name."),
        .init("description", .text, "Documentation."),
        .init("types", .map(.table("named-type")), "Named types, UpperCamelCase."),
        .init("endpoints", .map(.table(endpoint.name)), "Endpoints by dotted id (signal.publish)."),
        .init("codes", codeTable, "Codes of this domain, in the service file's form; joined with the service's table."),
    ])

    public static let endpoint = KeyTable("endpoint", "An endpoint.", required: ["route"], [
        .init("route", .text, "The method and path: GET /signals/{id}."),
        .init("summary", .text, "One line of documentation."),
        .init("description", .text, "Documentation."),
        .init("auth", .either([.boolean, .words(["none"])]), "none (or false) for a public endpoint."),
        .init("deprecated", .boolean, "true marks it deprecated."),
        .init("retry", .boolean, "Whether a call that met a fault is retried (by default: when the retry policy retries its method)."),
        .init("params", .map(.type), "The path parameters."),
        .init("query", .map(.type), "The query parameters."),
        .init("headers", .map(.type), "Headers of this endpoint."),
        .init("body", .type, "The JSON body."),
        .init("multipart", .map(.either([.table(filePart.name), .type])), "A multipart body's parts: files and text fields."),
        .init("response", .type, "The envelope's data (or the body, without an envelope)."),
        .init("binary", .either([.text, .list(.text)]), "Answers bytes of these media types instead of JSON."),
        .init("stream", .table(stream.name), "Answers a stream of events when the body's toggle is true."),
        .init("codes", .list(.integer), "The codes it may answer besides success."),
        .init("examples", .map(.table(example.name)), "Examples, checked against the types."),
    ])

    public static let filePart = KeyTable("file-part", "A file part of a multipart body.", required: ["type", "max_size", "content_types"], [
        .init("type", .words(["file", "file?"]), "file (file? when optional)."),
        .init("max_size", .textOrNumber, "The largest file: bytes, or 512KiB, 4MiB."),
        .init("content_types", .list(.text), "The media types it may be."),
        .init("optional", .boolean, "May be left out."),
        .init("description", .text, "Documentation."),
    ])

    public static let stream = KeyTable("stream", "A streamed answer.", required: ["toggle", "event"], [
        .init("toggle", .text, "The bool body member that asks for the stream."), .init("event", .type, "Each event's type."),
    ])

    public static let example = KeyTable("example", "An example request and answer.", [
        .init("params", .anything, "Path parameters."), .init("query", .anything, "Query parameters."),
        .init("body", .anything, "The request body."), .init("code", .integer, "The code answered (0, success, by default)."),
        .init("response", .anything, "The answer's data."),
    ])

    /// `{type: …, min: …}`: a type with its flags and constraints.
    public static let longForm = KeyTable("long-form", "A type with its flags and constraints.", required: ["type"], [
        .init("type", .type, "The type."), .init("description", .text, "Documentation; the generated /// comment."),
        .init("optional", .boolean, "May be absent; the same as T?."), .init("nullable", .boolean, "Must be present, may be null."),
        .init("default", .anything, "The value assumed when absent."), .init("deprecated", .boolean, "true marks it deprecated."),
        .init("min", .number, "The smallest number (inclusive)."), .init("max", .number, "The largest number (inclusive)."),
        .init("min_length", .integer, "The fewest characters."), .init("max_length", .integer, "The most characters."),
        .init("min_items", .integer, "The fewest items."), .init("max_items", .integer, "The most items."),
        .init("pattern", .text, "A regular expression the whole string matches."),
    ])

    public static let objectForm = KeyTable("object-form", "An object whose members are under 'fields'.", required: ["fields"], [
        .init("fields", .map(.type), "The members and their types."), .init("description", .text, "Documentation."),
        .init("deprecated", .boolean, "true marks it deprecated."),
    ])

    public static let unionForm = KeyTable("union-form", "A tagged union: the discriminator's value picks the shape.", required: ["one_of", "discriminator"], [
        .init("one_of", .map(.text), "Discriminator value → named object type."), .init("discriminator", .text, "The member whose value picks the shape."),
        .init("description", .text, "Documentation."), .init("deprecated", .boolean, "true marks it deprecated."),
    ])

    public static let enumForm = KeyTable("enum-form", "An enum: its values give its type.", required: ["enum"], [
        .init("enum", .either([.list(.text), .map(.text)]), "[a, b] for strings, {0: name, …} for integers."),
        .init("description", .text, "Documentation."), .init("deprecated", .boolean, "true marks it deprecated."),
        .init("default", .anything, "The value assumed when absent."), .init("optional", .boolean, "May be absent."),
    ])

    /// A named type: any type, or a generic one, `{parameters: [T], fields: …}`.
    static let genericForm = KeyTable("generic-form", "A generic type: its parameters and members.", required: ["parameters", "fields"],
                                      [.init("parameters", .list(.text), "The type parameters, such as [T].")] + objectForm.keys)

    public static let tables = [serviceFile, service, envelope, signing, signingHeaders, auth, apiKey, validation, swift, flows, retry, errors, code,
                                domainFile, endpoint, filePart, stream, example, longForm, objectForm, unionForm, enumForm, genericForm]

    /// The JSON Schema of a contract file.
    public static var schema: JSONSchemaDocument {
        var document = JSONSchemaDocument(id: "https://accord.dev/schemas/contract.schema.json", title: "Accord contract file",
                                          description: "A service file (with 'service:') or a domain file (with 'domain:'); docs/contract-format.md.",
                                          tables: tables, root: [("service", serviceFile.name)], fallback: domainFile.name)
        let generic: JSONValue = .object([.init("type", .string("object")), .init("required", .array([.string("parameters")]))])
        let plain: JSONValue = .object([.init("required", .array([.string("service")])), .init("properties", .object([.init("service", .object([
            .init("required", .array([.string("envelope")])), .init("properties", .object([.init("envelope", .object([.init("const", .string("none"))]))])),
        ]))]))])
        document.additions[serviceFile.name] = [.init("if", plain), .init("then", keys(outside: .plain)), .init("else", keys(outside: .enveloped))]
        document.definitions = [
            ("type", typePosition),
            ("named-type", JSONSchemaDocument.choice([(generic, JSONSchemaDocument.reference(to: genericForm.name)), (nil, JSONSchemaDocument.reference(to: "type"))])),
        ]
        return document
    }

    /// The keys a service of `style` does not take, refused by name where they would be:
    /// in the service file, its `validation` and each entry of its code table.
    private static func keys(outside style: KeyTable.Style) -> JSONValue {
        func refusing(_ table: KeyTable) -> [JSONValue.Member] {
            let names = table.keys.filter { $0.style != nil && $0.style != style }.map { JSONValue.string($0.name) }
            return [.init("propertyNames", .object([.init("not", .object([.init("enum", .array(names))]))]))]
        }
        let entry: JSONValue = .object(refusing(code))
        let codes: JSONValue = .object([.init("additionalProperties", JSONSchemaDocument.choice([
            (JSONSchemaDocument.type("array"), .object([.init("items", entry)])), (nil, entry),
        ]))])
        return .object(refusing(serviceFile) + [.init("properties", .object([.init("validation", .object(refusing(validation))), .init("codes", codes)]))])
    }

    /// A type position, as the loader tells its forms apart: a type expression, `[T]`,
    /// `fields:`, `one_of:`, `enum:`, then a mapping with `type:` (the long form, or an
    /// inline object with a member named `type`: its other members must be types, and
    /// `format` may not name an OpenAPI format), else an inline object of types.
    private static var typePosition: JSONValue {
        typealias Schema = JSONSchemaDocument
        func object(requiring key: String) -> JSONValue { .object([.init("type", .string("object")), .init("required", .array([.string(key)]))]) }
        let document = JSONSchemaDocument(id: "", title: "", description: "", tables: tables, root: [], fallback: "")
        let formats = (NodeReader.openAPIFormats.keys.sorted() + NodeReader.patternFormats.sorted()).map { JSONValue.string($0) }
        var longFormMembers = longForm.keys.filter { $0.name != "type" }.map { key in JSONValue.Member(key.name, document.schema(of: key.value)) }
        longFormMembers.append(.init("format", .object([.init("not", .object([.init("enum", .array(formats))]))])))
        let withType: JSONValue = .object([
            .init("description", .string("The long form {type: …, max_length: …}, or an inline object with a member named 'type'.")),
            .init("properties", .object([.init("type", Schema.reference(to: "type"))] + longFormMembers)),
            .init("additionalProperties", Schema.reference(to: "type")),
        ])
        let inline: JSONValue = .object([.init("description", .string("An inline object: member → type.")), .init("additionalProperties", Schema.reference(to: "type"))])
        return .object([
            .init("description", .string("A type: string, int, Signal, [Media], {string: int}, a | b, T?, or a mapping form.")),
            .init("type", .array([.string("string"), .string("array"), .string("object")])),
        ] + {
            guard case .object(let members) = Schema.choice([
                (Schema.type("string"), .object([])),
                (Schema.type("array"), .object([.init("items", Schema.reference(to: "type")), .init("minItems", .int(1)), .init("maxItems", .int(1))])),
                (object(requiring: "fields"), Schema.reference(to: objectForm.name)),
                (object(requiring: "one_of"), Schema.reference(to: unionForm.name)),
                (object(requiring: "enum"), Schema.reference(to: enumForm.name)),
                (object(requiring: "type"), withType),
                (nil, inline),
            ]) else { return [] }
            return members
        }())
    }
}
