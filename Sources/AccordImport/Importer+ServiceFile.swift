import AccordJSON

extension Importer {
    /// The service file's opening comment: where it came from and the document's own description.
    var serviceHeader: String {
        var text = "# Imported by 'accord import openapi' from \(service.title ?? service.name) \(service.version).\n"
        for line in (service.description ?? "").split(separator: "\n", omittingEmptySubsequences: false) where service.description != nil {
            text += line.isEmpty ? "#\n" : "# \(line)\n"
        }
        return text
    }

    var serviceDocument: JSONValue {
        var info: [JSONValue.Member] = [.init("name", .string(service.name))]
        if let title = service.title { info.append(.init("title", .string(title))) }
        info.append(.init("version", .string(service.version)))
        if !service.basePath.isEmpty { info.append(.init("base_path", .string(service.basePath))) }
        if let envelope = service.envelope {
            info.append(.init("envelope", .object([.init("code", .string(envelope.code)), .init("msg", .string(envelope.message)),
                                                   .init("data", .string(envelope.data))])))
        } else {
            info.append(.init("envelope", .string("none")))
        }
        var members: [JSONValue.Member] = [.init("service", .object(info))]
        if let recorded = recordedSections {
            members += recorded
        } else {
            if service.envelope == nil {
                members.append(.init("errors", .object([.init("media_type", .string(errorMediaType)), .init("body", .string(errorBody))])))
            }
            if let auth = service.auth { members.append(.init("auth", auth)) }
            let rule: JSONValue.Member = service.envelope == nil ? .init("status", .int(validationStatus)) : .init("violation_code", .int(validationStatus))
            members.append(.init("validation", .object([.init("unknown_members", .string("ignore")), rule])))
            members.append(.init("codes", .object(codeTable)))
        }
        let types = declarations.filter { $0.domain == nil }.sorted { $0.name < $1.name }
        if !types.isEmpty { members.append(.init("types", .object(types.map { .init($0.name, $0.body) }))) }
        return .object(members)
    }

    /// The body most error answers have (`any` when the document gives none).
    var errorBody: String {
        service.errorBodyCounts.max { $0.value < $1.value || $0.value == $1.value && $0.key > $1.key }?.key ?? "any"
    }

    private var errorMediaType: String {
        service.errorMediaTypes.max { $0.value < $1.value || $0.value == $1.value && $0.key > $1.key }?.key ?? "application/json"
    }

    /// 422 when the document answers it, else 400: the status of a request that breaks the contract.
    private var validationStatus: Int { service.errorStatuses.contains(422) ? 422 : 400 }

    /// One entry per error status met, a 401 carrying the logout flow when there is auth, and the validation status.
    private var codeTable: [JSONValue.Member] {
        var statuses = Set(service.errorStatuses)
        statuses.insert(validationStatus)
        if service.auth != nil { statuses.insert(401) }
        return statuses.sorted().map { status in
            var entry: [JSONValue.Member] = [.init("name", .string(codeName(status))),
                                             .init("msg", .string(Self.statusNames[status]?.1 ?? "Error \(status)"))]
            // A 401 with auth ends the session: the flow the mock answers a missing credential with.
            if status == 401, service.auth != nil { entry.append(.init("flow", .string("logout"))) }
            if service.envelope != nil {
                entry.append(.init("http", .int(status)))
            } else if let body = service.errorBodies[status], body != errorBody {
                entry.append(.init("data", .string(body)))
            }
            return .init(String(status), .object(entry))
        }
    }

    /// The name the code table gives `code`.
    func codeName(_ code: Int) -> String {
        if case .array(let entries)? = service.recorded?["codes"],
           case .string(let name)? = entries.first(where: { $0["code"] == .int(code) })?["name"] {
            return name
        }
        if code == 401, service.auth != nil { return "force-logout" }
        return Self.statusNames[code]?.0 ?? "status-\(code)"
    }

    static let statusNames: [Int: (String, String)] = [
        400: ("bad-request", "Bad request"), 401: ("unauthorized", "Unauthorized"), 402: ("payment-required", "Payment required"),
        403: ("forbidden", "Forbidden"), 404: ("not-found", "Not found"), 405: ("method-not-allowed", "Method not allowed"),
        406: ("not-acceptable", "Not acceptable"), 408: ("request-timeout", "Request timeout"), 409: ("conflict", "Conflict"),
        410: ("gone", "Gone"), 412: ("precondition-failed", "Precondition failed"), 413: ("content-too-large", "Content too large"),
        415: ("unsupported-media-type", "Unsupported media type"), 422: ("unprocessable-content", "Unprocessable content"),
        423: ("locked", "Locked"), 428: ("precondition-required", "Precondition required"), 429: ("too-many-requests", "Too many requests"),
        500: ("internal-error", "Internal server error"), 501: ("not-implemented", "Not implemented"), 502: ("bad-gateway", "Bad gateway"),
        503: ("service-unavailable", "Service unavailable"), 504: ("gateway-timeout", "Gateway timeout"),
    ]
}
