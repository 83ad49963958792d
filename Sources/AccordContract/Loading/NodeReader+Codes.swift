import AccordDiagnostics
import AccordYAML

/// The code table: business codes in an envelope, HTTP statuses (with their `when`) for a
/// plain API, and the checks that tie it to the auth section and the error bodies.
extension NodeReader {
    mutating func codes(_ node: Node) -> [BusinessCode] {
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
    mutating func codeEntry(_ node: Node, code: Int, keyNode: Node, plain: Bool) -> BusinessCode? {
        guard let fields = mapping(node, "code \(code)") else { return nil }
        checkKeys(fields, allowed: ContractKeys.code.names(for: plain ? .plain : .enveloped), in: "code \(code)", misplaced: plain
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

    /// `errors: {media_type, body}`: how a plain API writes its error answers.
    mutating func errors(_ node: Node) -> Service.Errors {
        var errors = Service.Errors()
        guard let pairs = mapping(node, "'errors'") else { return errors }
        checkKeys(pairs, allowed: ContractKeys.errors.names, in: "'errors'")
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
    mutating func statusCodes(_ node: Node) -> [BusinessCode] {
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

    /// Every flow the auth section cannot carry out: a refresh without a refresh
    /// endpoint, a logout or ban without credentials to end.
    mutating func checkFlows(_ codes: [BusinessCode], auth: Service.Auth) {
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
    mutating func checkErrorBodies(_ codes: [BusinessCode], errors: Service.Errors, at node: Node) {
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
}
