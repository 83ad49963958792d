import AccordJSON
import Foundation

extension Importer {
    static let methods = ["get", "put", "post", "delete", "patch"]

    mutating func readPaths(_ root: Spot) {
        guard let paths = root["paths"] else {
            if root["webhooks"] == nil { log.warn("paths-missing", "the document has no 'paths': nothing to import", at: root) }
            return
        }
        for (path, written) in paths.members {
            if path.hasPrefix("x-") { continue }
            guard case .found(let item) = resolveReporting(written) else { continue }
            for (key, operation) in item.members {
                if Self.methods.contains(key) {
                    importOperation(path, method: key, operation, shared: item["parameters"]?.items ?? [], pathSpot: written)
                } else if ["head", "options", "trace", "query"].contains(key) {
                    log.warn("method-unsupported", "\(key.uppercased()) \(path) is not imported: routes are GET, POST, PUT, PATCH or DELETE", at: operation)
                    summary.operationsSkipped += 1
                } else if key == "servers" {
                    log.warn("servers-path", "servers of one path are not imported; its routes use the document's base path", at: operation)
                }
            }
        }
    }

    /// `resolve` that reports a broken reference.
    mutating func resolveReporting(_ spot: Spot) -> References.Outcome {
        let outcome = references.resolve(spot)
        if case .broken(let diagnostic) = outcome { log.add(diagnostic) }
        return outcome
    }

    private mutating func importOperation(_ path: String, method: String, _ operation: Spot, shared: [Spot], pathSpot: Spot) {
        guard let (template, renames) = route(path, at: pathSpot) else {
            summary.operationsSkipped += 1
            return
        }
        let routeKey = method.uppercased() + " " + template.replacing(/\{[^}]*\}/, with: "{}")
        guard takenRoutes.insert(routeKey).inserted else {
            log.warn("route-duplicate", "\(method.uppercased()) \(path) is the route of an operation already imported; not imported", at: operation)
            summary.operationsSkipped += 1
            return
        }
        let domain = domainName(operation, template)
        let id = endpointID(operation, domain: domain, method: method, template: template)
        let hint = Names.typeName(String(id.split(separator: ".").dropFirst().joined(separator: "_")))
        var draft = EndpointDraft(id: id, domain: domain, spot: operation)
        draft.members.append(.init("route", .string(method.uppercased() + " " + template)))
        let summaryText = operation["summary"]?.text
        if let summaryText { draft.members.append(.init("summary", .string(summaryText))) }
        if let description = description(of: operation), description != summaryText, description != operation["operationId"]?.text {
            draft.members.append(.init("description", .string(description)))
        }
        if service.auth != nil, !requiresAuth(operation) { draft.members.append(.init("auth", .string("none"))) }
        if operation["deprecated"]?.bool == true { draft.members.append(.init("deprecated", .bool(true))) }
        parameters(shared, operation["parameters"]?.items ?? [], renames: renames, hint: hint, into: &draft)
        requestBody(operation, method: method, hint: hint, into: &draft)
        operationStream = recordedStream(operation)
        responses(operation, hint: hint, into: &draft)
        operationStream = nil
        if let recorded = operation["x-accord-examples"] {
            draft.examples = recorded.members.map { name, example in
                ExampleDraft(name: name, parameters: example["params"]?.json, query: example["query"]?.json, code: example["code"]?.int ?? 0,
                             body: example["body"]?.json, response: example["response"]?.json, spot: example)
            }
            draft.examplesAreRecorded = true
        }
        for key in ["callbacks", "links"] where operation[key] != nil {
            log.warn(key == "links" ? "links" : "callbacks", "\(key) of \(method.uppercased()) \(path) are not imported", at: operation[key] ?? operation)
        }
        endpoints.append(draft)
        summary.operationsImported += 1
    }

    /// Whether `text` is an endpoint id as the contract takes it: dotted parts of letters, digits, `-` and `_`.
    static func isEndpointID(_ text: String) -> Bool {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count >= 2 && parts.allSatisfy { part in
            !part.isEmpty && part.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "-" || $0 == "_" }
        }
    }

    /// The operation's description; what `accord openapi` added to it (the list of business codes) is left out.
    private func description(of operation: Spot) -> String? {
        guard let text = operation["description"]?.text else { return nil }
        guard operation["x-accord-codes"] != nil, let range = text.range(of: "\n\nBusiness codes: ", options: .backwards) else { return text }
        return String(text[..<range.lowerBound])
    }

    /// A document path as a contract route: `:id` as `{id}`, a `#fragment` or `?query` dropped, parameter names
    /// made letters, digits and `_`; nil (with an error) when a parameter is only part of a segment.
    private mutating func route(_ path: String, at spot: Spot) -> (String, [String: String])? {
        var text = path
        if let hash = text.firstIndex(of: "#") {
            log.warn("path-fragment", "'\(path)': the fragment '\(text[hash...])' is not part of a route; dropped", at: spot)
            text = String(text[..<hash])
        }
        if let question = text.firstIndex(of: "?") {
            log.warn("path-query", "'\(path)': the query '\(text[question...])' is not part of a route; the endpoint answers without it", at: spot)
            text = String(text[..<question])
        }
        var segments: [String] = []
        var renames: [String: String] = [:]
        for piece in text.split(separator: "/", omittingEmptySubsequences: true) {
            var segment = String(piece)
            if segment.hasPrefix(":"), segment.count > 1 {
                log.warnOnce("path-colon", subject: "", "'\(path)': ':\(segment.dropFirst())' is read as the parameter '{\(segment.dropFirst())}'", at: spot)
                segment = "{\(segment.dropFirst())}"
            }
            if segment.hasPrefix("{"), segment.hasSuffix("}"), segment.count > 2, !segment.dropFirst().dropLast().contains(where: { "{}".contains($0) }) {
                let name = String(segment.dropFirst().dropLast())
                let clean = Names.parameter(name)
                renames[name] = clean
                segments.append("{\(clean)}")
            } else if segment.contains("{") || segment.contains("}") || segment.contains(" ") {
                log.warn("path-template", "'\(path)': the segment '\(segment)' is only partly a parameter; routes take whole-segment parameters, "
                         + "so the operation is not imported", at: spot)
                return nil
            } else {
                segments.append(segment)
            }
        }
        if text.count > 1, text.hasSuffix("/") {
            log.warnOnce("path-trailing-slash", subject: "", "'\(path)': the trailing '/' is not part of a route; dropped", at: spot)
        }
        return ("/" + segments.joined(separator: "/"), renames)
    }

    private func domainName(_ operation: Spot, _ template: String) -> String {
        if domainRule == .tags, let tag = operation["tags"]?.items.first?.text { return Names.domain(tag) }
        let segment = template.split(separator: "/").first { !$0.hasPrefix("{") }
        return Names.domain(segment.map(String.init) ?? "api")
    }

    /// `operationId` within its domain (`pets.listPets`); one that already starts with the domain (as `accord openapi`
    /// writes them) is kept; without one, the method and the path's literal segments.
    private mutating func endpointID(_ operation: Spot, domain: String, method: String, template: String) -> String {
        let written = operation["operationId"]?.text
        var local: String
        if let written, Self.isEndpointID(written) {
            // Already an endpoint id (`accord openapi` writes them so; dotted ids are common): kept as written.
            return Names.unique(written, in: &takenEndpointIDs, separator: "_")
        } else if let written, !written.isEmpty {
            local = Names.identifier(written)
        } else {
            let words = template.split(separator: "/").map { segment -> String in
                segment.hasPrefix("{") ? "by_" + String(segment.dropFirst().dropLast()) : String(segment)
            }
            local = ([method] + words).map(Names.identifier).joined(separator: "_")
        }
        if local.allSatisfy({ $0 == "_" }) { local = method }
        return Names.unique(domain + "." + local, in: &takenEndpointIDs, separator: "_")
    }
}
