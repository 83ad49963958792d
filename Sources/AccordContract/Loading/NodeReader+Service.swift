import AccordDiagnostics
import AccordYAML

extension NodeReader {
    static let serviceFileKeys = ["service", "signing", "auth", "headers", "validation", "codes", "types"]

    /// Decodes a service file (its root has a `service:` key), noting where it names
    /// endpoints so the cross-file checks can point at each name.
    mutating func service(_ root: [Node.Pair], at rootNode: Node, references: inout [EndpointReference]) -> Service? {
        checkKeys(root, allowed: Self.serviceFileKeys, in: "a service file")
        guard let serviceNode = rootNode["service"], let info = mapping(serviceNode, "'service'") else { return nil }
        checkKeys(info, allowed: ["name", "title", "version", "base_path", "envelope"], in: "'service'")

        var name: String?, version = "1.0.0", basePath = "", title: String?
        var envelope = Service.Envelope()
        for pair in info {
            switch pair.key.scalar?.value {
            case "name": name = text(pair.value, "'name'")
            case "title": title = text(pair.value, "'title'")
            case "version": version = text(pair.value, "'version'") ?? version
            case "base_path": basePath = self.basePath(pair.value) ?? ""
            case "envelope": envelope = self.envelope(pair.value)
            default: break
            }
        }
        if name == nil { error("'service' needs a 'name'", at: serviceNode) }

        var signing = Service.Signing(isEnabled: false, apps: [:])
        if let node = rootNode["signing"] { signing = self.signing(node) ?? signing }
        guard let authNode = rootNode["auth"] else {
            error("a service file needs an 'auth' section (token lifetimes and the refresh endpoint)", at: rootNode)
            return nil
        }
        guard let auth = auth(authNode) else { return nil }
        references += endpointReferences(in: rootNode)
        let headers = rootNode["headers"].flatMap { mapping($0, "'headers'") }.map { fields($0, of: "'headers'") } ?? []
        var validation = Service.Validation()
        if let node = rootNode["validation"] { validation = self.validation(node) }
        var codes: [BusinessCode] = []
        if let node = rootNode["codes"] { codes = self.codes(node) }

        return Service(
            name: name ?? "", title: title, version: version, basePath: basePath, envelope: envelope,
            signing: signing, auth: auth, headers: headers, codes: codes, validation: validation,
            location: location(serviceNode)
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

    private mutating func envelope(_ node: Node) -> Service.Envelope {
        var envelope = Service.Envelope()
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

    private mutating func auth(_ node: Node) -> Service.Auth? {
        guard let pairs = mapping(node, "'auth'") else { return nil }
        checkKeys(pairs, allowed: ["header", "scheme", "access_ttl", "refresh_ttl", "refresh", "login", "logout"], in: "'auth'")
        var auth = Service.Auth(accessTTLSeconds: 7_200, refreshTTLSeconds: 2_592_000, refreshEndpoint: "", loginEndpoints: [])
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
        if auth.refreshEndpoint.isEmpty { error("'auth' needs 'refresh': the id of the token refresh endpoint", at: node) }
        return auth
    }

    private mutating func validation(_ node: Node) -> Service.Validation {
        var validation = Service.Validation()
        guard let pairs = mapping(node, "'validation'") else { return validation }
        checkKeys(pairs, allowed: ["unknown_members", "violation_code"], in: "'validation'")
        for pair in pairs {
            switch pair.key.scalar?.value {
            case "unknown_members":
                guard let name = text(pair.value, "'unknown_members'") else { break }
                guard let policy = Service.Validation.UnknownMembers(rawValue: name) else {
                    error("'unknown_members' is 'reject' or 'ignore', found '\(name)'", at: pair.value)
                    break
                }
                validation.unknownMembers = policy
            case "violation_code": validation.violationCode = int(pair.value, "'violation_code'") ?? validation.violationCode
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
            guard let fields = mapping(pair.value, "code \(code)") else { return nil }
            checkKeys(fields, allowed: ["name", "msg", "flow", "http", "description", "data"], in: "code \(code)")
            var entry = BusinessCode(code: code, name: "", message: "", location: location(pair.key))
            for field in fields {
                let value = field.value
                switch field.key.scalar?.value {
                case "name": entry.name = text(value, "'name'") ?? ""
                case "msg": entry.message = text(value, "'msg'") ?? ""
                case "description": entry.description = text(value, "'description'")
                case "data": entry.data = typeSpec(value, "the data of code \(code)")?.schema
                case "http":
                    guard let status = int(value, "'http'") else { break }
                    if (100...599).contains(status) { entry.httpStatus = status } else {
                        error("'http' must be an HTTP status from 100 to 599, found \(status)", at: value)
                    }
                case "flow":
                    guard let name = text(value, "'flow'") else { break }
                    guard let flow = BusinessCode.Flow(rawValue: name) else {
                        let names = BusinessCode.Flow.allCases.map(\.rawValue)
                        error("unknown flow '\(name)'; expected one of \(names.joined(separator: ", "))", at: value)
                        break
                    }
                    entry.flow = flow
                default: break
                }
            }
            if entry.name.isEmpty { error("code \(code) needs a 'name'", at: pair.key) }
            return entry
        }
    }
}
