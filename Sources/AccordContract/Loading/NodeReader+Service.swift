import AccordDiagnostics
import AccordYAML

extension NodeReader {
    /// Decodes a service file (its root has a `service:` key), noting where it names
    /// endpoints so the cross-file checks can point at each name.
    mutating func service(_ root: [Node.Pair], at rootNode: Node, references: inout [EndpointReference]) -> Service? {
        checkKeys(root, allowed: ContractKeys.serviceFile.names, in: "a service file")
        guard let serviceNode = rootNode["service"], let info = mapping(serviceNode, "'service'") else { return nil }
        checkKeys(info, allowed: ContractKeys.service.names, in: "'service'")

        var name: String?, version = "1.0.0", basePath = "", title: String?
        var envelope: Service.Envelope? = Service.Envelope()
        var envelopeNode: Node?
        for pair in info {
            switch pair.key.scalar?.value {
            case "name": name = text(pair.value, "'name'")
            case "title": title = text(pair.value, "'title'")
            case "version": version = text(pair.value, "'version'") ?? version
            case "base_path": basePath = self.basePath(pair.value) ?? ""
            case "envelope": (envelope, envelopeNode) = (self.envelope(pair.value), pair.value)
            default: break
            }
        }
        if name == nil { error("'service' needs a 'name'", at: serviceNode) }

        var signing = Service.Signing(isEnabled: false, apps: [:])
        if let node = rootNode["signing"] { signing = self.signing(node) ?? signing }
        var auth = Service.Auth.none
        if let node = rootNode["auth"] { guard let declared = self.auth(node) else { return nil }; auth = declared }
        references += endpointReferences(in: rootNode)
        let headers = rootNode["headers"].flatMap { mapping($0, "'headers'") }.map { fields($0, of: "'headers'") } ?? []
        var validation = Service.Validation(status: envelope == nil ? 422 : 400)
        if let node = rootNode["validation"] { validation = self.validation(node, plain: envelope == nil) }
        var swift = Service.SwiftNaming()
        if let node = rootNode["swift"] { swift = swiftNaming(node) }
        var flows = Service.Flows()
        if let node = rootNode["flows"] { flows = self.flows(node) }
        var errors = Service.Errors()
        if let node = rootNode["errors"] {
            if envelope != nil {
                error("'errors' describes the error bodies of an API without an envelope; with one, errors are codes in it (write 'envelope: none')",
                      at: root.first { $0.key.scalar?.value == "errors" }?.key ?? node)
            }
            errors = self.errors(node)
        }
        var codes: [BusinessCode] = []
        if let node = rootNode["codes"] { codes = envelope == nil ? statusCodes(node) : self.codes(node) }
        if envelope == nil { checkErrorBodies(codes, errors: errors, at: envelopeNode ?? serviceNode) }
        checkFlows(codes, auth: auth)

        return Service(
            name: name ?? "", title: title, version: version, basePath: basePath, envelope: envelope, errors: errors,
            signing: signing, auth: auth, headers: headers, codes: codes, validation: validation, swift: swift,
            location: location(serviceNode), flows: flows
        )
    }

    /// The endpoint ids named by `auth` and `signing.exempt`, and the violation code.
    private func endpointReferences(in root: Node) -> [EndpointReference] {
        var references: [EndpointReference] = []
        func add(_ node: Node?, _ role: String) {
            guard let node else { return }
            for item in node.sequence ?? [node] {
                if let id = item.scalar?.value { references.append(EndpointReference(id: id, role: role, location: location(item))) }
            }
        }
        add(root["auth"]?["refresh"], "the auth refresh endpoint")
        add(root["auth"]?["login"], "the auth login endpoint")
        add(root["auth"]?["logout"], "the auth logout endpoint")
        add(root["signing"]?["exempt"], "the signing exemption")
        add(root["flows"]?["allowed_while_banned"], "an endpoint a banned user may call")
        return references
    }

    private mutating func basePath(_ node: Node) -> String? {
        guard let path = text(node, "'base_path'") else { return nil }
        guard path.hasPrefix("/"), !path.hasSuffix("/") || path == "/" else {
            error("'base_path' must start with '/' and not end with one, found '\(path)'", at: node)
            return nil
        }
        return path == "/" ? "" : path
    }

    /// `envelope: none`, or the member names of the envelope.
    private mutating func envelope(_ node: Node) -> Service.Envelope? {
        var envelope = Service.Envelope()
        if let word = node.scalar?.value, node.sequence == nil, node["code"] == nil {
            if word == "none" { return nil }
            error("'envelope' is 'none' (answers are the response type itself) or a mapping {code, msg, data}, found '\(word)'", at: node)
            return envelope
        }
        guard let pairs = mapping(node, "'envelope'") else { return envelope }
        checkKeys(pairs, allowed: ContractKeys.envelope.names, in: "'envelope'")
        for pair in pairs {
            switch pair.key.scalar?.value {
            case "code": envelope.code = text(pair.value, "'code'") ?? envelope.code
            case "msg": envelope.message = text(pair.value, "'msg'") ?? envelope.message
            case "data": envelope.data = text(pair.value, "'data'") ?? envelope.data
            default: break
            }
        }
        return envelope
    }

    private mutating func signing(_ node: Node) -> Service.Signing? {
        guard let pairs = mapping(node, "'signing'") else { return nil }
        checkKeys(pairs, allowed: ContractKeys.signing.names, in: "'signing'")
        var signing = Service.Signing(apps: [:])
        for pair in pairs {
            let value = pair.value
            switch pair.key.scalar?.value {
            case "enabled": signing.isEnabled = bool(value, "'enabled'") ?? true
            case "algorithm":
                guard let name = text(value, "'algorithm'") else { break }
                guard let algorithm = Service.Signing.Algorithm(rawValue: name) else {
                    let names = Service.Signing.Algorithm.allCases.map(\.rawValue)
                    error("unknown signing algorithm '\(name)'; expected one of \(names.joined(separator: ", "))", at: value)
                    break
                }
                signing.algorithm = algorithm
            case "parts":
                signing.parts = (sequence(value, "'parts'") ?? []).compactMap { item in
                    guard let name = text(item, "a signing part") else { return nil }
                    guard let part = Service.Signing.Part(rawValue: name) else {
                        let names = Service.Signing.Part.allCases.map(\.rawValue)
                        error("unknown signing part '\(name)'\(NameSuggestion.hint(for: name, in: names))", at: item)
                        return nil
                    }
                    return part
                }
            case "apps":
                for app in mapping(value, "'apps'") ?? [] {
                    guard let key = key(app, "'apps'"), let secret = text(app.value, "the secret of app '\(key)'") else { continue }
                    signing.apps[key] = secret
                }
            case "headers":
                for header in mapping(value, "'headers'") ?? [] {
                    guard let role = key(header, "signing 'headers'"), let name = text(header.value, "header '\(role)'") else { continue }
                    switch role {
                    case "app_key": signing.appKeyHeader = name
                    case "timestamp": signing.timestampHeader = name
                    case "nonce": signing.nonceHeader = name
                    case "sign": signing.signatureHeader = name
                    default:
                        let roles = ContractKeys.signingHeaders.names
                        error("unknown key '\(role)' in signing 'headers'\(NameSuggestion.hint(for: role, in: roles))", at: header.key)
                    }
                }
            case "window": signing.windowSeconds = seconds(value, "'window'") ?? signing.windowSeconds
            case "nonce_ttl": signing.nonceTTLSeconds = seconds(value, "'nonce_ttl'") ?? signing.nonceTTLSeconds
            case "exempt": signing.exempt = texts(value, "'exempt'")
            default: break
            }
        }
        if signing.isEnabled && signing.apps.isEmpty {
            error("signing is enabled but 'apps' names no app key and secret", at: node)
        }
        return signing
    }

    private mutating func validation(_ node: Node, plain: Bool) -> Service.Validation {
        var validation = Service.Validation(status: plain ? 422 : 400)
        guard let pairs = mapping(node, "'validation'") else { return validation }
        checkKeys(pairs, allowed: ContractKeys.validation.names(for: plain ? .plain : .enveloped), in: "'validation'", misplaced: plain
                  ? ["violation_code": "without an envelope a refused request is an HTTP status; write 'status: 422' (or 400)"]
                  : ["status": "with an envelope, the violation code's 'http' in 'codes' sets the status of a refused request"])
        for pair in pairs {
            switch pair.key.scalar?.value {
            case "unknown_members":
                guard let name = text(pair.value, "'unknown_members'") else { break }
                guard let policy = Service.Validation.UnknownMembers(rawValue: name) else {
                    error("'unknown_members' is 'reject' or 'ignore', found '\(name)'", at: pair.value)
                    break
                }
                validation.unknownMembers = policy
            case "violation_code" where !plain: validation.violationCode = int(pair.value, "'violation_code'") ?? validation.violationCode
            case "status" where plain:
                guard let status = int(pair.value, "'status'") else { break }
                if status == 400 || status == 422 { validation.status = status } else {
                    error("'status' of a refused request is 400 or 422, found \(status)", at: pair.value)
                }
            default: break
            }
        }
        return validation
    }

    /// `swift: {acronyms: [kb, sku], namespace: Tongban}`: each acronym a lower-case word of
    /// letters and digits that starts with a letter, at most 16 characters, each once, at
    /// most 200; the namespace an ASCII identifier (what else it must not be, the generator says).
    private mutating func swiftNaming(_ node: Node) -> Service.SwiftNaming {
        var naming = Service.SwiftNaming()
        guard let pairs = mapping(node, "'swift'") else { return naming }
        checkKeys(pairs, allowed: ContractKeys.swift.names, in: "'swift'")
        if let value = node["namespace"], let name = text(value, "'namespace'") {
            let isIdentifierScalar = { (scalar: Unicode.Scalar) in scalar.isASCII && (scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == "_") }
            if let first = name.unicodeScalars.first, first.properties.numericType == nil, name.count <= 64, name.unicodeScalars.allSatisfy(isIdentifierScalar) {
                naming.namespace = name
                naming.namespaceLocation = location(value)
            } else {
                let kept = String(String.UnicodeScalarView(name.unicodeScalars.filter(isIdentifierScalar)).prefix(64))
                let suggestion = kept.isEmpty ? "" : "; write '\(kept.first?.isNumber == true ? "_" + kept : kept)'"
                error("'namespace' is a Swift identifier of ASCII letters, digits and '_' that does not start with a digit, "
                      + "at most 64 characters, found '\(name)'\(suggestion)", at: value)
            }
        }
        guard let list = node["acronyms"], let items = sequence(list, "'acronyms'") else { return naming }
        if items.count > 200 { error("'acronyms' lists \(items.count) words; at most 200", at: list) }
        for item in items.prefix(200) {
            guard let word = text(item, "an acronym") else { continue }
            let lowered = word.lowercased()
            guard word.count <= 16, let first = lowered.unicodeScalars.first, ("a"..."z").contains(first),
                  lowered.unicodeScalars.allSatisfy({ ("a"..."z").contains($0) || ("0"..."9").contains($0) }) else {
                error("an acronym is a word of ASCII letters and digits that starts with a letter, at most 16 characters, found '\(word)'", at: item)
                continue
            }
            guard word == lowered else {
                error("write acronyms in lower case, as they appear in wire names: '\(lowered)', not '\(word)'", at: item)
                continue
            }
            guard !naming.acronyms.contains(word) else {
                error("acronym '\(word)' is listed twice", at: item)
                continue
            }
            naming.acronyms.append(word)
        }
        return naming
    }
}
