import AccordDiagnostics
import AccordYAML

/// What one domain file declares.
struct DomainFile {
    var domain: Domain
    var types: [TypeDeclaration]
    var endpoints: [Endpoint]
    /// Where each endpoint's route was written (for path diagnostics).
    var routeLocations: [String: SourceLocation]
    /// Every business code the file names, with where, for the code-table check.
    var codeReferences: [CodeReference] = []
}

/// A business code named by an endpoint's `codes` or an example's `code`.
struct CodeReference {
    var code: Int
    /// Where the code is named, in messages: "'signal.publish'", "example 'quota'".
    var context: String
    var location: SourceLocation
}

extension NodeReader {
    /// Decodes a domain file (its root has a `domain:` key).
    /// The named types under a file's `types:` (a domain file's, or the service file's).
    mutating func typeDeclarations(_ node: Node, domain: String) -> [TypeDeclaration] {
        var declarations: [TypeDeclaration] = []
        for pair in mapping(node, "'types'") ?? [] {
            guard let typeName = key(pair, "'types'") else { continue }
            guard Self.isTypeName(typeName) else {
                error("type names are UpperCamelCase letters and digits, found '\(typeName)'", at: pair.key)
                continue
            }
            var node = pair.value
            var parameters: [String] = []
            if let pairs = node.mapping, let parametersPair = pairs.first(where: { $0.key.scalar?.value == "parameters" }) {
                guard let names = genericParameters(parametersPair.value, of: typeName), node["fields"] != nil else {
                    if node["fields"] == nil { error("a generic type declares its members under 'fields'", at: parametersPair.key) }
                    continue
                }
                parameters = names
                node = Node(.mapping(pairs.filter { $0.key.scalar?.value != "parameters" }), at: node.mark)
            }
            guard let spec = typeSpec(node, "type '\(typeName)'") else { continue }
            if spec.isOptional { error("'?' marks an optional field; a named type cannot be optional", at: pair.value) }
            declarations.append(TypeDeclaration(name: typeName, domain: domain, schema: spec.schema, location: location(pair.key),
                                                parameters: parameters))
        }
        return declarations
    }

    /// `parameters: [T]` of a generic type: UpperCamelCase names, each once.
    private mutating func genericParameters(_ node: Node, of typeName: String) -> [String]? {
        guard let items = sequence(node, "'parameters'") else { return nil }
        var names: [String] = []
        for item in items {
            guard let name = text(item, "a type parameter") else { continue }
            guard Self.isTypeName(name) else {
                error("type parameters are UpperCamelCase names such as T, found '\(name)'", at: item)
                continue
            }
            if names.contains(name) { error("type parameter '\(name)' of '\(typeName)' is declared twice", at: item) }
            names.append(name)
        }
        if items.isEmpty { error("'parameters' lists at least one type parameter, such as [T]", at: node) }
        return names.isEmpty ? nil : names
    }

    mutating func domain(_ root: [Node.Pair], at rootNode: Node) -> DomainFile? {
        checkKeys(root, allowed: ContractKeys.domainFile.names, in: "a domain file")
        guard let nameNode = rootNode["domain"], let name = text(nameNode, "'domain'") else { return nil }
        var file = DomainFile(
            domain: Domain(name: name, file: self.file, description: rootNode["description"].flatMap { text($0, "'description'") },
                           typeNames: [], endpointIDs: [], location: location(nameNode)),
            types: [], endpoints: [], routeLocations: [:]
        )
        file.types = rootNode["types"].map { typeDeclarations($0, domain: name) } ?? []
        file.domain.typeNames = file.types.map(\.name)
        for pair in rootNode["endpoints"].flatMap({ mapping($0, "'endpoints'") }) ?? [] {
            guard let id = key(pair, "'endpoints'"), let decoded = endpoint(id, pair, domain: name) else { continue }
            file.codeReferences += codeReferences(in: pair.value, endpoint: id)
            file.endpoints.append(decoded.endpoint)
            file.routeLocations[id] = decoded.route
            file.domain.endpointIDs.append(id)
        }
        return file
    }

    private mutating func endpoint(_ id: String, _ pair: Node.Pair, domain: String) -> (endpoint: Endpoint, route: SourceLocation)? {
        let what = "endpoint '\(id)'"
        guard id.contains("."), id.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" }) else {
            error("endpoint ids are dotted names such as '\(domain).publish', found '\(id)'", at: pair.key)
            return nil
        }
        guard let pairs = mapping(pair.value, what) else { return nil }
        checkKeys(pairs, allowed: ContractKeys.endpoint.names, in: what)
        guard let routeNode = pair.value["route"] else {
            error("\(what) needs a 'route' such as 'GET /path'", at: pair.key)
            return nil
        }
        guard let (method, path) = route(routeNode) else { return nil }
        var endpoint = Endpoint(id: id, domain: domain, method: method, path: path,
                                response: Schema(.object([]), location: location(pair.key)), location: location(pair.key))
        for field in pairs {
            let value = field.value
            switch field.key.scalar?.value {
            case "summary": endpoint.summary = text(value, "'summary'")
            case "description": endpoint.description = text(value, "'description'")
            case "auth":
                // `auth: none` (or false) marks a public endpoint.
                if value.scalar?.value == "none" { endpoint.requiresAuth = false } else {
                    endpoint.requiresAuth = bool(value, "'auth' (none or false for a public endpoint)") ?? true
                }
            case "deprecated": endpoint.isDeprecated = bool(value, "'deprecated'") ?? false
            case "retry": endpoint.retriesFaults = bool(value, "'retry'")
            case "params": endpoint.parameters = mapping(value, "'params'").map { fields($0, of: "'params'") } ?? []
            case "query": endpoint.query = mapping(value, "'query'").map { fields($0, of: "'query'") } ?? []
            case "headers": endpoint.headers = mapping(value, "'headers'").map { fields($0, of: "'headers'") } ?? []
            case "body": endpoint.body = unflagged(value, "the body of \(what)")
            case "response": endpoint.response = unflagged(value, "the response of \(what)") ?? endpoint.response
            case "stream": endpoint.stream = stream(value, what)
            case "multipart": endpoint.multipart = multipart(value, what)
            case "binary":
                endpoint.binary = mediaTypes(value, "'binary'")
                if pair.value["response"] != nil {
                    error("'\(id)' answers bytes ('binary'), not an envelope's data: it declares no 'response'", at: field.key)
                }
            case "codes": endpoint.codes = (sequence(value, "'codes'") ?? []).compactMap { int($0, "a business code") }
            case "examples": endpoint.examples = examples(value, what)
            default: break
            }
        }
        return (endpoint, location(routeNode))
    }

    private func codeReferences(in endpoint: Node, endpoint id: String) -> [CodeReference] {
        var references = (endpoint["codes"]?.sequence ?? []).compactMap { node -> CodeReference? in
            guard case .int(let code)? = node.scalar?.resolved else { return nil }
            return CodeReference(code: code, context: "'\(id)'", location: location(node))
        }
        for example in endpoint["examples"]?.mapping ?? [] {
            guard let node = example.value["code"], case .int(let code)? = node.scalar?.resolved, code != 0 else { continue }
            references.append(CodeReference(code: code, context: "example '\(example.key.scalar?.value ?? "")'", location: location(node)))
        }
        return references
    }

    /// `multipart: {file: {type: file, max_size: 4MiB, content_types: [image/png]}, purpose: avatar | signal}`.
    private mutating func multipart(_ node: Node, _ what: String) -> [MultipartPart]? {
        guard let pairs = mapping(node, "the multipart body of \(what)") else { return nil }
        var parts: [MultipartPart] = []
        for pair in pairs {
            guard let name = key(pair, "'multipart'") else { continue }
            let partNode = pair.value
            let isFile = partNode["type"]?.scalar?.value == "file" || partNode["type"]?.scalar?.value == "file?"
            if isFile, let partPairs = partNode.mapping {
                checkKeys(partPairs, allowed: ContractKeys.filePart.names, in: "file part '\(name)'")
                guard let sizeNode = partNode["max_size"] else {
                    error("file part '\(name)' needs 'max_size' (bytes, or 512KiB, 4MiB)", at: pair.key)
                    continue
                }
                guard let maxSize = byteSize(sizeNode, "'max_size'") else { continue }
                guard let typesNode = partNode["content_types"] else {
                    error("file part '\(name)' needs 'content_types', the media types it may be", at: pair.key)
                    continue
                }
                guard let types = mediaTypes(typesNode, "'content_types'") else { continue }
                let optional = partNode["type"]?.scalar?.value == "file?" || (partNode["optional"].flatMap { bool($0, "'optional'") } ?? false)
                parts.append(MultipartPart(name: name, content: .file(.init(maxSize: maxSize, contentTypes: types)), isOptional: optional,
                                           description: partNode["description"].flatMap { text($0, "description") }, location: location(pair.key)))
            } else if let spec = typeSpec(partNode, "part '\(name)'") {
                parts.append(MultipartPart(name: name, content: .text(spec.schema), isOptional: spec.isOptional,
                                           description: spec.schema.description, location: location(pair.key)))
            }
        }
        if parts.isEmpty { error("a multipart body needs at least one part", at: node) }
        return parts
    }

    /// `4MiB`, `512KiB` or a number of bytes, from 1 byte to 1 GiB (``ByteSizeText``).
    private mutating func byteSize(_ node: Node, _ what: String) -> Int? {
        let written: String? = if case .int(let bytes)? = node.scalar?.resolved { String(bytes) } else { text(node, what) }
        guard let written else { return nil }
        guard let bytes = ByteSizeText.bytes(written), bytes >= 1 else {
            error("\(what) is a size from 1 byte to 1GiB such as 4MiB, 512KiB or 1048576, found '\(written)'", at: node)
            return nil
        }
        return bytes
    }

    /// `[image/png, image/jpeg]` or one `type/subtype`.
    private mutating func mediaTypes(_ node: Node, _ what: String) -> [String]? {
        let items = node.sequence ?? [node]
        var types: [String] = []
        for item in items {
            guard let text = text(item, "a media type in \(what)") else { continue }
            let halves = text.split(separator: "/", omittingEmptySubsequences: false)
            guard halves.count == 2, halves.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || "+-.*".contains($0) } }) else {
                error("expected a media type such as image/png in \(what), found '\(text)'", at: item)
                continue
            }
            types.append(text.lowercased())
        }
        guard !types.isEmpty else {
            // Each bad item is reported where it is; an empty list once.
            if items.isEmpty { error("\(what) needs at least one media type", at: node) }
            return nil
        }
        return types
    }

    /// A body or response type: `?`, `optional` and `nullable` make no sense there.
    private mutating func unflagged(_ node: Node, _ what: String) -> Schema? {
        guard let spec = typeSpec(node, what) else { return nil }
        if spec.isOptional || spec.isNullable {
            error("'?', 'optional' and 'nullable' apply to fields, not to \(what)", at: node)
        }
        return spec.schema
    }

    /// `GET /signals/{signal_id}` → method and path template.
    private mutating func route(_ node: Node) -> (Endpoint.Method, PathTemplate)? {
        guard let text = text(node, "'route'") else { return nil }
        let parts = text.split(separator: " ", omittingEmptySubsequences: true)
        guard parts.count == 2 else {
            error("a route is a method and a path such as 'GET /signals/{signal_id}', found '\(text)'", at: node)
            return nil
        }
        guard let method = Endpoint.Method(rawValue: String(parts[0])) else {
            let names = Endpoint.Method.allCases.map(\.rawValue)
            error("unknown HTTP method '\(parts[0])'; expected one of \(names.joined(separator: ", "))", at: node)
            return nil
        }
        let path = String(parts[1])
        guard path.hasPrefix("/") else {
            error("a route's path starts with '/', found '\(path)'", at: node)
            return nil
        }
        var segments: [PathTemplate.Segment] = []
        for piece in path.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            if piece.hasPrefix("{") && piece.hasSuffix("}") && piece.count > 2 {
                let name = String(piece.dropFirst().dropLast())
                guard name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else {
                    error("path parameter names are letters, digits and '_', found '{\(name)}'", at: node)
                    return nil
                }
                segments.append(.parameter(name))
            } else if piece.contains("{") || piece.contains("}") || (piece.isEmpty && path != "/") {
                error("malformed path segment '\(piece)' in '\(path)'; a parameter fills a whole segment: '/{name}'", at: node)
                return nil
            } else if !piece.isEmpty {
                segments.append(.literal(String(piece)))
            }
        }
        return (method, PathTemplate(segments: segments))
    }

    private mutating func stream(_ node: Node, _ what: String) -> Endpoint.Stream? {
        guard let pairs = mapping(node, "'stream'") else { return nil }
        checkKeys(pairs, allowed: ContractKeys.stream.names, in: "'stream'")
        guard let eventNode = node["event"] else {
            error("'stream' needs 'event': the type of each event's data", at: node)
            return nil
        }
        guard let event = unflagged(eventNode, "the stream events of \(what)") else { return nil }
        let toggle = node["toggle"].flatMap { text($0, "'toggle'") } ?? "stream"
        return Endpoint.Stream(toggle: toggle, event: event)
    }

    private mutating func examples(_ node: Node, _ what: String) -> [Endpoint.Example] {
        (mapping(node, "'examples'") ?? []).compactMap { pair in
            guard let name = key(pair, "'examples'"), let fields = mapping(pair.value, "example '\(name)'") else { return nil }
            checkKeys(fields, allowed: ContractKeys.example.names, in: "example '\(name)'")
            var example = Endpoint.Example(name: name, location: location(pair.key))
            for field in fields {
                switch field.key.scalar?.value {
                case "params": example.parameters = json(field.value)
                case "query": example.query = json(field.value)
                case "body": example.body = json(field.value)
                case "code": example.code = int(field.value, "'code'") ?? 0
                case "response": example.response = json(field.value)
                default: break
                }
            }
            return example
        }
    }
}
