import AccordJSON

extension Importer {
    /// The success answer (`response` or `binary`) and the error statuses (`codes`, with their bodies in the service's table).
    mutating func responses(_ operation: Spot, hint: String, into draft: inout EndpointDraft) {
        let written = operation["responses"]?.members.filter { !$0.key.hasPrefix("x-") } ?? []
        let successes = written.filter { $0.key.hasPrefix("2") }
        let chosen = successes.first { $0.key == "200" } ?? successes.min { $0.key < $1.key }
        if let (status, spot) = chosen {
            if status != "200" {
                log.warnOnce("success-status", subject: status, "success status \(status) is answered as 200 by the mock (the contract has one success status)",
                             at: spot)
            }
            success(spot, hint: hint, into: &draft)
        }
        for (status, spot) in successes where status != chosen?.key {
            log.warn("response-other", "the \(status) answer beside \(chosen?.key ?? "") is not imported", at: spot)
        }
        // What `accord openapi` wrote: the endpoint's own codes (the others are the service's flows) and a default
        // answer that is the mock's own refusal.
        let recorded = operation["x-accord-codes"]?.items.compactMap { $0["code"]?.int }
        var codes: [Int] = recorded ?? []
        for (key, spot) in written where !key.hasPrefix("2") && !(recorded != nil && key == "default") {
            guard let status = errorStatus(key, at: spot) else { continue }
            if key != "default", recorded == nil { codes.append(status) }
            errorResponse(status, spot, isDefault: key == "default", hint: hint, into: &draft)
        }
        if !codes.isEmpty { draft.members.append(.init("codes", .array(Array(Set(codes)).sorted().map(JSONValue.int)))) }
    }

    /// `404` as 404, `4XX` as 400 and `5XX` as 500 (with a warning), `default` as the shared error body; 1xx and 3xx are reported.
    private mutating func errorStatus(_ key: String, at spot: Spot) -> Int? {
        if key == "default" { return 0 }
        if key.count == 3, key.hasSuffix("XX") || key.hasSuffix("xx"), let first = key.first, first == "4" || first == "5" {
            log.warnOnce("status-range", subject: key, "the range \(key) is imported as status \(first)00 (the code table names statuses)", at: spot)
            return first == "4" ? 400 : 500
        }
        guard let status = Int(key), (400...599).contains(status) else {
            log.warn("status-other", "the \(key) answer is not imported: the contract answers a success or an error status 400-599", at: spot)
            return nil
        }
        return status
    }

    private mutating func success(_ written: Spot, hint: String, into draft: inout EndpointDraft) {
        guard case .found(let response) = resolveReporting(written) else { return }
        let content = response["content"]?.members ?? []
        // Bytes (`format: binary`) beside JSON that is no success (an envelope's business codes) are the answer.
        let binary = content.filter { !Self.isJSON($0.key) && $0.value["schema"]?["format"]?.text == "binary" }.map(\.key)
        let json = content.first { Self.isJSON($0.key) }
        if !binary.isEmpty, json == nil || service.envelope.map({ envelope in json.flatMap { $0.value["schema"] }.flatMap { envelopeData($0, envelope) } == nil }) == true {
            draft.members.append(.init("binary", .array(binary.map(JSONValue.string))))
            return
        }
        if let (mediaType, media) = json {
            var schema = media["schema"]
            if let envelope = service.envelope, let written = schema {
                schema = envelopeData(written, envelope)
                if schema == nil {
                    log.warnOnce("envelope-missing", subject: "", "a success answer is not an envelope with '\(envelope.data)'; the endpoint answers no data",
                                 at: written)
                }
            }
            // An object with no members is what an endpoint answers when the contract says nothing (`accord openapi` writes it so).
            if let schema, !isEmptyObject(schema) {
                let use = typeUse(schema, hint: Self.componentName(written) ?? hint + "Response", domain: draft.domain)
                draft.members.append(.init("response", use.position))
            } else if media["schema"] == nil {
                draft.members.append(.init("response", .string("any")))
            }
            for example in examples(of: media) {
                let (code, value) = service.envelope.map { unwrapped(example.value, $0) } ?? (0, example.value)
                draft.examples.append(ExampleDraft(name: example.name, code: code, response: value, spot: example.spot))
            }
            if let stream = operationStream { draft.members.append(.init("stream", stream)) }
            for (other, spot) in content where other != mediaType && !(operationStream != nil && other.hasPrefix("text/event-stream")) {
                log.warnOnce("media-type-other", subject: other, "'\(other)' beside '\(mediaType)' is not imported", at: spot)
            }
        } else if content.contains(where: { $0.key.hasPrefix("text/event-stream") }) {
            log.warn("stream", "a text/event-stream answer is imported as an empty JSON answer: its events have no schema to stream", at: written)
        } else if !content.isEmpty {
            let types = content.map(\.key).filter { $0.contains("/") && !$0.contains("*") || $0.hasSuffix("/*") }
            if types.isEmpty {
                log.warn("media-type-other", "'\(content[0].key)' answers are not imported", at: content[0].value)
            } else {
                draft.members.append(.init("binary", .array(types.map(JSONValue.string))))
            }
        }
    }

    private mutating func errorResponse(_ status: Int, _ written: Spot, isDefault: Bool, hint: String, into draft: inout EndpointDraft) {
        guard case .found(let response) = resolveReporting(written) else { return }
        // An envelope's error is its business code: the status is where it travels, the body the envelope.
        if service.envelope != nil {
            if !isDefault { service.noteError(status, body: nil, mediaType: nil) }
            return
        }
        let content = response["content"]?.members ?? []
        guard let (mediaType, media) = content.first(where: { Self.isJSON($0.key) }) else {
            if !isDefault { service.noteError(status, body: nil, mediaType: nil) }
            if let other = content.first { log.warnOnce("error-media-type", subject: other.key, "'\(other.key)' error bodies are not imported", at: other.value) }
            return
        }
        let name = Self.componentName(written) ?? hint + (isDefault ? "Error" : "Error\(status)")
        let use = media["schema"].map { typeUse($0, hint: name, domain: nil) } ?? .any
        let body = use.expression
        if isDefault {
            service.errorBodyCounts[body, default: 0] += 2
            service.errorMediaTypes[mediaType.lowercased(), default: 0] += 1
            return
        }
        if let known = service.errorBodies[status], known != body {
            log.warnOnce("error-body-differs", subject: String(status), "status \(status) answers '\(known)' elsewhere and '\(body)' here; the code table "
                         + "keeps one body per status, '\(known)'", at: media)
        } else {
            service.noteError(status, body: body, mediaType: mediaType.lowercased())
        }
        draft.fixtures += examples(of: media).map { ExampleDraft(name: $0.name, response: $0.value, status: status, spot: $0.spot) }
    }

    /// A media object's examples by name: `example` as `default`, each of `examples` (a `$ref` followed) by its key.
    mutating func examples(of media: Spot) -> [(name: String, value: JSONValue, spot: Spot)] {
        var result: [(name: String, value: JSONValue, spot: Spot)] = []
        if let example = media["example"] { result.append(("default", example.json, example)) }
        for (name, written) in media["examples"]?.members ?? [] {
            var current = written
            if case .found(let target) = references.resolve(written) { current = target }
            if let value = current["value"] {
                result.append((Names.identifier(name), value.json, value))
            } else if let external = current["externalValue"] {
                log.warn("example-external", "example '\(name)' is in another document ('\(external.text ?? "")'); not imported", at: external)
            }
        }
        return result
    }
}

extension Importer {
    /// `{type: object, properties: {}}` written in place: no members, none other allowed.
    func isEmptyObject(_ schema: Spot) -> Bool {
        schema["$ref"] == nil && schema["type"]?.text == "object" && schema["properties"]?.members.isEmpty == true
            && (schema["additionalProperties"] == nil || schema["additionalProperties"]?.bool == false)
    }

    /// The type name a `$ref` to a shared component suggests (`#/components/responses/NotFound` → `NotFound`).
    static func componentName(_ written: Spot) -> String? {
        guard let text = written["$ref"]?.text, let last = text.split(separator: "/").last else { return nil }
        return Names.typeName(String(last))
    }
}

extension ServiceDraft {
    /// Counts one error answer of `status` with `body`, the first body of a status being the one its table entry keeps.
    mutating func noteError(_ status: Int, body: String?, mediaType: String?) {
        if !errorStatuses.contains(status) { errorStatuses.append(status) }
        if let body {
            if errorBodies[status] == nil { errorBodies[status] = body }
            errorBodyCounts[body, default: 0] += 1
        }
        if let mediaType { errorMediaTypes[mediaType, default: 0] += 1 }
    }
}
