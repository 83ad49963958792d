import AccordDiagnostics
import AccordYAML

/// The `auth:` section: none, bearer tokens or an API key.
extension NodeReader {
    /// `auth: none`, bearer tokens (`login`, `refresh`, `logout` and their lifetimes) or
    /// `api_key: {header|query: NAME, keys: [...]}`.
    mutating func auth(_ node: Node) -> Service.Auth? {
        if let word = node.scalar?.value {
            if word == "none" { return Service.Auth.none }
            error("'auth' is 'none' (every endpoint public) or a mapping: bearer tokens ('login', 'refresh'…) or 'api_key', found '\(word)'", at: node)
            return nil
        }
        guard let pairs = mapping(node, "'auth'") else { return nil }
        checkKeys(pairs, allowed: ContractKeys.auth.names, in: "'auth'")
        if let keyPair = pairs.first(where: { $0.key.scalar?.value == "api_key" }) {
            // Every other key of the table is a bearer-token setting.
            for pair in pairs where pair.key.scalar.map({ $0.value != "api_key" && ContractKeys.auth.names.contains($0.value) }) == true {
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
    mutating func apiKey(_ node: Node) -> Service.Auth.APIKey? {
        guard let pairs = mapping(node, "'api_key'") else { return nil }
        checkKeys(pairs, allowed: ContractKeys.apiKey.names, in: "'api_key'")
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
}
