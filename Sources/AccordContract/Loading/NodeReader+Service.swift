import AccordDiagnostics
import AccordYAML

extension NodeReader {
    static let serviceFileKeys = ["service", "errors", "signing", "auth", "headers", "validation", "codes", "types"]

    /// Decodes a service file (its root has a `service:` key), noting where it names
    /// endpoints so the cross-file checks can point at each name.
    mutating func service(_ root: [Node.Pair], at rootNode: Node, references: inout [EndpointReference]) -> Service? {
        checkKeys(root, allowed: Self.serviceFileKeys, in: "a service file")
        guard let serviceNode = rootNode["service"], let info = mapping(serviceNode, "'service'") else { return nil }
        checkKeys(info, allowed: ["name", "title", "version", "base_path", "envelope"], in: "'service'")

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
            signing: signing, auth: auth, headers: headers, codes: codes, validation: validation,
            location: location(serviceNode)
        )
    }

    /// Every flow the auth section cannot carry out: a refresh without a refresh
    /// endpoint, a logout or ban without credentials to end.
    private mutating func checkFlows(_ codes: [BusinessCode], auth: Service.Auth) {
        for code in codes {
            switch code.flow {
            case .refreshAndRetry where !auth.usesTokens:
                error("code \(code.code) (\(code.name)) asks for 'refresh-and-retry', but the service has no bearer tokens to refresh;"
                      + " declare 'auth' with 'login' and 'refresh', or use flow 'logout'", at: code.location)
            case .refreshAndRetry where !auth.refreshes:
                error("code \(code.code) (\(code.name)) asks for 'refresh-and-retry', but 'auth' names no 'refresh' endpoint;"
                      + " add 'refresh: ENDPOINT' to 'auth', or use flow 'logout'", at: code.location)
            case .logout where auth.kind == .none, .ban where auth.kind == .none:
                error("code \(code.code) (\(code.name)) asks for '\(code.flow.rawValue)', but the service has no 'auth' section: there is no session to end",
                      at: code.location)
            default: break
            }
        }
    }

    /// A plain API's error statuses each need a body type, and the entries of one
    /// status need discriminators to be told apart.
    private mutating func checkErrorBodies(_ codes: [BusinessCode], errors: Service.Errors, at node: Node) {
        for code in codes where code.data == nil && errors.body == nil {
            error("error status \(code.code) (\(code.name)) has no body type; declare 'errors: {body: TYPE}' for every status, or 'data: TYPE' on this one",
                  at: code.location)
        }
        for status in Set(codes.map(\.code)).sorted() {
            let entries = codes.filter { $0.code == status }
            let plain = entries.filter { $0.discriminator == nil }
            for extra in plain.dropFirst() {
                error("status \(status) has two entries without 'when' ('\(plain[0].name)' and '\(extra.name)'); give each but one"
                      + " a discriminator, e.g. when: {type: 'https://example.com/problems/\(extra.name)'}", at: extra.location)
            }
            var seen: Set<BusinessCode.Discriminator> = []
            for entry in entries {
                guard let discriminator = entry.discriminator else { continue }
                if !seen.insert(discriminator).inserted {
                    error("status \(status) has two entries with when: {\(discriminator.member): '\(discriminator.value)'}; each needs its own value",
                          at: entry.location)
                }
            }
        }
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
        checkKeys(pairs, allowed: ["code", "msg", "data"], in: "'envelope'")
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

    /// `errors: {media_type, body}`: how a plain API writes its error answers.
    private mutating func errors(_ node: Node) -> Service.Errors {
        var errors = Service.Errors()
        guard let pairs = mapping(node, "'errors'") else { return errors }
        checkKeys(pairs, allowed: ["media_type", "body"], in: "'errors'")
        for pair in pairs {
            switch pair.key.scalar?.value {
            case "media_type":
                guard let type = text(pair.value, "'media_type'") else { break }
                if MediaTypes.isJSON(type) { errors.mediaType = type } else {
                    error("the error media type must be JSON ('application/json' or a '+json' type), found '\(type)'", at: pair.value)
                }
            case "body": errors.body = typeSpec(pair.value, "the error body")?.schema
            default: break
            }
        }
        return errors
    }

    /// The code table of a plain API: HTTP error statuses, each one entry or a list of
    /// entries told apart by `when: {MEMBER: VALUE}` on the error body.
    private mutating func statusCodes(_ node: Node) -> [BusinessCode] {
        guard let pairs = mapping(node, "'codes'") else { return [] }
        var codes: [BusinessCode] = []
        for pair in pairs {
            guard case .int(let status)? = pair.key.scalar?.resolved else {
                error("without an envelope, 'codes' is keyed by HTTP status (401, 404, 422…), found \(pair.key.kindDescription)", at: pair.key)
                continue
            }
            guard (400...599).contains(status) else {
                error("without an envelope, 'codes' lists error statuses from 400 to 599, found \(status)", at: pair.key)
                continue
            }
            for item in pair.value.sequence ?? [pair.value] {
                if let entry = codeEntry(item, code: status, keyNode: pair.value.sequence == nil ? pair.key : item, plain: true) { codes.append(entry) }
            }
        }
        return codes
    }

    private mutating func signing(_ node: Node) -> Service.Signing? {
        guard let pairs = mapping(node, "'signing'") else { return nil }
        checkKeys(pairs, allowed: ["enabled", "algorithm", "parts", "apps", "headers", "window", "nonce_ttl", "exempt"], in: "'signing'")
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
                        let roles = ["app_key", "timestamp", "nonce", "sign"]
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

    /// `auth: none`, bearer tokens (`login`, `refresh`, `logout` and their lifetimes) or
    /// `api_key: {header|query: NAME, keys: [...]}`.
    private mutating func auth(_ node: Node) -> Service.Auth? {
        if node.scalar?.value == "none" { return Service.Auth.none }
        guard let pairs = mapping(node, "'auth'") else { return nil }
        let bearerKeys = ["header", "scheme", "access_ttl", "refresh_ttl", "refresh", "login", "logout"]
        checkKeys(pairs, allowed: bearerKeys + ["api_key"], in: "'auth'")
        if let keyPair = pairs.first(where: { $0.key.scalar?.value == "api_key" }) {
            for pair in pairs where pair.key.scalar.map({ bearerKeys.contains($0.value) }) == true {
                error("'\(pair.key.scalar?.value ?? "")' is a bearer-token setting; an 'auth' with 'api_key' takes no other key", at: pair.key)
            }
            return apiKey(keyPair.value).map { Service.Auth(kind: .apiKey($0)) }
        }
        var auth = Service.Auth()
        for pair in pairs {
            let value = pair.value
            switch pair.key.scalar?.value {
            case "header": auth.header = text(value, "'header'") ?? auth.header
            case "scheme": auth.scheme = text(value, "'scheme'") ?? auth.scheme
            case "access_ttl": auth.accessTTLSeconds = seconds(value, "'access_ttl'") ?? auth.accessTTLSeconds
            case "refresh_ttl": auth.refreshTTLSeconds = seconds(value, "'refresh_ttl'") ?? auth.refreshTTLSeconds
            case "refresh": auth.refreshEndpoint = text(value, "'refresh'") ?? ""
            case "login": auth.loginEndpoints = texts(value, "'login'")
            case "logout": auth.logoutEndpoint = text(value, "'logout'")
            default: break
            }
        }
        return auth
    }

    /// `api_key: {header: X-API-Key, keys: [...]}` or `{query: api_key, keys: [...]}`.
    private mutating func apiKey(_ node: Node) -> Service.Auth.APIKey? {
        guard let pairs = mapping(node, "'api_key'") else { return nil }
        checkKeys(pairs, allowed: ["header", "query", "keys"], in: "'api_key'")
        var places: [(Service.Auth.APIKey.Location, String)] = []
        var keys: [String] = []
        for pair in pairs {
            switch pair.key.scalar?.value {
            case "header": if let name = text(pair.value, "'header'") { places.append((.header, name)) }
            case "query": if let name = text(pair.value, "'query'") { places.append((.query, name)) }
            case "keys": keys = texts(pair.value, "'keys'")
            default: break
            }
        }
        guard places.count == 1, let (location, name) = places.first else {
            error(places.isEmpty ? "'api_key' needs where the key travels: 'header: NAME' or 'query: NAME'"
                                 : "'api_key' travels in one place: 'header' or 'query', not both", at: node)
            return nil
        }
        if keys.isEmpty { error("'api_key' needs 'keys': the keys the mock accepts, such as [dev-key]", at: node) }
        return Service.Auth.APIKey(location: location, name: name, keys: keys)
    }

    private mutating func validation(_ node: Node, plain: Bool) -> Service.Validation {
        var validation = Service.Validation(status: plain ? 422 : 400)
        guard let pairs = mapping(node, "'validation'") else { return validation }
        checkKeys(pairs, allowed: ["unknown_members", plain ? "status" : "violation_code"], in: "'validation'", misplaced: plain
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

    private mutating func codes(_ node: Node) -> [BusinessCode] {
        guard let pairs = mapping(node, "'codes'") else { return [] }
        return pairs.compactMap { pair in
            guard case .int(let code)? = pair.key.scalar?.resolved else {
                error("a business code is an integer, found \(pair.key.kindDescription)", at: pair.key)
                return nil
            }
            guard code != 0 else {
                error("code 0 is success and is not declared in 'codes'", at: pair.key)
                return nil
            }
            return codeEntry(pair.value, code: code, keyNode: pair.key, plain: false)
        }
    }

    /// One entry of the code table; `plain` entries may take `when` and keep their status.
    private mutating func codeEntry(_ node: Node, code: Int, keyNode: Node, plain: Bool) -> BusinessCode? {
        guard let fields = mapping(node, "code \(code)") else { return nil }
        checkKeys(fields, allowed: ["name", "msg", "flow", plain ? "when" : "http", "description", "data"], in: "code \(code)", misplaced: plain
                  ? ["http": "without an envelope the key of the entry is its HTTP status"]
                  : ["when": "'when' tells apart the entries of one HTTP status of an API without an envelope; a business code is one entry"])
        var entry = BusinessCode(code: code, name: "", message: "", httpStatus: plain ? code : 200, location: location(keyNode))
        for field in fields {
            let value = field.value
            switch field.key.scalar?.value {
            case "name": entry.name = text(value, "'name'") ?? ""
            case "msg": entry.message = text(value, "'msg'") ?? ""
            case "description": entry.description = text(value, "'description'")
            case "data": entry.data = typeSpec(value, "the data of code \(code)")?.schema
            case "http" where !plain:
                guard let status = int(value, "'http'") else { break }
                if (100...599).contains(status) { entry.httpStatus = status } else {
                    error("'http' must be an HTTP status from 100 to 599, found \(status)", at: value)
                }
            case "when" where plain:
                guard let pairs = mapping(value, "'when'") else { break }
                guard pairs.count == 1, let member = key(pairs[0], "'when'"), let text = text(pairs[0].value, "the value of '\(member)'") else {
                    error("'when' names one member of the error body and its text, e.g. when: {type: 'https://example.com/problems/\(entry.name)'}",
                          at: value)
                    break
                }
                entry.discriminator = BusinessCode.Discriminator(member: member, value: text)
            case "flow":
                guard let name = text(value, "'flow'") else { break }
                guard let flow = BusinessCode.Flow(rawValue: name) else {
                    let names = BusinessCode.Flow.allCases.map(\.rawValue)
                    let hint = NameSuggestion.hint(for: name, in: names)
                    error("unknown flow '\(name)'" + (hint.isEmpty ? "; expected one of \(names.joined(separator: ", "))" : hint), at: value)
                    break
                }
                entry.flow = flow
            default: break
            }
        }
        if entry.name.isEmpty { error("code \(code) needs a 'name'", at: keyNode) }
        return entry
    }
}
