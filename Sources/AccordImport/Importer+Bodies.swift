import Foundation
import AccordJSON

extension Importer {
    /// Whether a media type is JSON: `application/json`, `application/problem+json`, `application/json; charset=utf-8`.
    static func isJSON(_ mediaType: String) -> Bool {
        let base = mediaType.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        return base == "application/json" || base.hasSuffix("+json") || base == "*/*" || base == "application/*"
    }

    /// The request body: JSON as `body`, `multipart/form-data` as `multipart`; other media types are reported.
    mutating func requestBody(_ operation: Spot, method: String, hint: String, into draft: inout EndpointDraft) {
        guard let written = operation["requestBody"], case .found(let body) = resolveReporting(written) else { return }
        guard !["get", "delete"].contains(method) else {
            log.warn("body-on-get", "a request body on \(method.uppercased()) is not imported: the contract has none there", at: written)
            return
        }
        let content = body["content"]?.members ?? []
        if body["required"]?.bool != true, !content.isEmpty {
            log.warnOnce("body-optional", subject: "", "request bodies not marked 'required' are imported as required (a contract body always is)",
                         at: body["required"] ?? written)
        }
        if let (mediaType, media) = content.first(where: { Self.isJSON($0.key) }) {
            let use = media["schema"].map { typeUse($0, hint: Self.componentName(written) ?? hint + "Body", domain: draft.domain) } ?? .any
            draft.members.append(.init("body", use.position))
            draft.examples += examples(of: media).map { ExampleDraft(name: $0.name, body: $0.value, spot: $0.spot) }
            reportOtherMedia(content, besides: mediaType)
        } else if let (mediaType, media) = content.first(where: { $0.key.lowercased().hasPrefix("multipart/form-data") }) {
            draft.members.append(.init("multipart", .object(parts(media, hint: hint, domain: draft.domain))))
            reportOtherMedia(content, besides: mediaType)
        } else if let (mediaType, media) = content.first {
            let id = mediaType.lowercased().hasPrefix("application/x-www-form-urlencoded") ? "form-body" : "body-media-type"
            log.warn(id, "a '\(mediaType)' request body is not imported: contract bodies are JSON or multipart/form-data", at: media)
        }
    }

    private mutating func reportOtherMedia(_ content: [(key: String, value: Spot)], besides chosen: String) {
        for (mediaType, media) in content where mediaType != chosen {
            log.warnOnce("media-type-other", subject: mediaType, "'\(mediaType)' beside '\(chosen)' is not imported", at: media)
        }
    }

    /// The parts of a multipart body: binary members as file parts (any media type, 10 MiB unless the document says
    /// otherwise), other members as text parts.
    private mutating func parts(_ media: Spot, hint: String, domain: String) -> [JSONValue.Member] {
        guard let written = media["schema"], case .found(let schema) = resolveReporting(written) else { return [] }
        let required = Set((schema["required"]?.items ?? []).compactMap(\.text))
        var parts: [JSONValue.Member] = []
        for (name, property) in schema["properties"]?.members ?? [] {
            let target: Spot = if case .found(let found) = references.resolve(property) { found } else { property }
            let isFile = target["format"]?.text == "binary" || target["contentMediaType"] != nil || target["contentEncoding"] != nil
                || target["type"]?.text == "array" && target["items"]?["format"]?.text == "binary"
            guard isFile else {
                if Self.isObjectLike(target) || target["type"]?.text == "array" || target["oneOf"] != nil || target["anyOf"] != nil {
                    log.warn("part-structured", "part '\(name)' is an object or an array; a text part holds a scalar or an enum, so it is imported as a string",
                             at: property)
                    parts.append(.init(name, TypeUse(expression: "string").field(optional: !required.contains(name))))
                    continue
                }
                var use = typeUse(property, hint: hint + Names.typeName(name), domain: domain)
                if use.expression.hasPrefix("[") || use.expression.hasPrefix("{") || use.expression == "any" || isObjectType(use.expression) {
                    log.warn("part-structured", "part '\(name)' is \(use.expression); a text part holds a scalar or an enum, so it is imported as a string",
                             at: property)
                    use = TypeUse(expression: "string")
                }
                parts.append(.init(name, use.field(optional: !required.contains(name))))
                continue
            }
            if target["type"]?.text == "array" {
                log.warn("part-array", "part '\(name)' holds several files; imported as one file part", at: property)
            }
            let declared = media["encoding"]?[name]?["contentType"]?.text ?? target["contentMediaType"]?.text
            let types = declared.map { $0.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } } ?? ["*/*"]
            // A binary string's maxLength is its size in bytes (as `accord openapi` writes a file part's).
            var size = JSONValue.int(10 << 20)
            if let bytes = target["maxLength"]?.int, bytes > 0 {
                size = .int(bytes)
            } else {
                log.warnOnce("part-size", subject: "", "file parts without 'maxLength' are imported with a 10MiB limit; edit 'max_size' to the real one",
                             at: property)
            }
            var part: [JSONValue.Member] = [.init("type", .string(required.contains(name) ? "file" : "file?")), .init("max_size", size),
                                            .init("content_types", .array(types.map(JSONValue.string)))]
            if let description = target["description"]?.text { part.append(.init("description", .string(description))) }
            parts.append(.init(name, .object(part)))
        }
        return parts
    }
}
