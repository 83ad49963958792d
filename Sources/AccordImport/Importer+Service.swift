import AccordJSON
import Foundation

extension Importer {
    /// The first server's path is the base path (`https://api.example.com/v1` → `/v1`), its variables at their defaults.
    mutating func readServers(_ root: Spot) {
        let servers = root["servers"]?.items ?? []
        guard let first = servers.first, var url = first["url"]?.text else { return }
        for (name, variable) in first["variables"]?.members ?? [] {
            url = url.replacingOccurrences(of: "{\(name)}", with: variable["default"]?.text ?? "")
        }
        if let scheme = url.range(of: "://") {
            let rest = url[scheme.upperBound...]
            url = rest.firstIndex(of: "/").map { String(rest[$0...]) } ?? ""
        }
        let segments = url.split(separator: "/").filter { !$0.isEmpty && !$0.contains("{") }
        service.basePath = segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
        let others = Set(servers.dropFirst().compactMap(\.text) + servers.dropFirst().compactMap { $0["url"]?.text })
        if !others.isEmpty {
            log.warn("servers", "\(servers.count) servers: the base path is the first one's ('\(service.basePath.isEmpty ? "/" : service.basePath)')",
                     at: root["servers"] ?? root)
        }
    }

    /// The security scheme the mock carries out: bearer tokens (http bearer, OAuth 2, OpenID Connect) or an API key in a
    /// header or the query, whichever the document asks for first; others are reported.
    mutating func readSecurity(_ root: Spot) {
        let schemes = (root["components"]?["securitySchemes"]?.members ?? []).compactMap { name, written -> (String, Spot)? in
            guard case .found(let scheme) = resolveReporting(written) else { return nil }
            return (name, scheme)
        }
        service.defaultSecurity = requirement(root["security"]) ?? []
        let used = service.defaultSecurity + operationsSchemes(root)
        let order = used + schemes.map(\.0).filter { !used.contains($0) }
        if let name = order.first(where: { name in schemes.contains { $0.0 == name && Self.kind(of: $0.1) != nil } }),
           let chosen = schemes.first(where: { $0.0 == name })?.1 {
            carry(chosen)
            // Every scheme of the same kind is carried out by the same section (OAuth 2 and a bearer token alike).
            for (other, scheme) in schemes where Self.kind(of: scheme) == Self.kind(of: chosen) { service.carriedSchemes.insert(other) }
        }
        for (name, scheme) in schemes where !service.carriedSchemes.contains(name) {
            log.warn("auth-scheme", "security scheme '\(name)' (\(scheme["type"]?.text ?? "?")) is not carried out by the mock: "
                     + (service.auth == nil ? "its operations are imported as public" : "the auth section carries one kind of credential"), at: scheme)
        }
    }

    /// What a scheme asks for, as far as the auth section can carry it: `bearer`, `header:X-API-Key`, `query:key`; nil for others.
    static func kind(of scheme: Spot) -> String? {
        switch (scheme["type"]?.text, scheme["scheme"]?.text?.lowercased(), scheme["in"]?.text) {
        case ("http", "bearer"?, _), ("oauth2", _, _), ("openIdConnect", _, _): "bearer"
        case ("apiKey", _, let place?) where place == "header" || place == "query": scheme["name"]?.text.map { place + ":" + $0 }
        default: nil
        }
    }

    private mutating func carry(_ scheme: Spot) {
        guard let kind = Self.kind(of: scheme) else { return }
        guard kind != "bearer", let colon = kind.firstIndex(of: ":") else {
            service.auth = .object([.init("header", .string("Authorization")), .init("scheme", .string("Bearer"))])
            return
        }
        let place = String(kind[..<colon])
        let parameter = String(kind[kind.index(after: colon)...])
        service.auth = .object([.init("api_key", .object([.init(place, .string(parameter)), .init("keys", .array([.string("dev-key")]))]))])
        if place == "header" { service.apiKeyHeader = parameter } else { service.apiKeyQuery = parameter }
    }

    /// The scheme names of every operation's requirement, in document order.
    private func operationsSchemes(_ root: Spot) -> [String] {
        (root["paths"]?.members ?? []).flatMap { _, item in
            item.members.filter { Self.methods.contains($0.key) }.flatMap { requirement($0.value["security"]) ?? [] }
        }
    }

    /// The schemes a `security` list names (an empty list, or one holding `{}`, is public: `[]`).
    private func requirement(_ spot: Spot?) -> [String]? {
        guard let spot else { return nil }
        let alternatives = spot.items
        if alternatives.isEmpty || alternatives.contains(where: { $0.members.isEmpty }) { return [] }
        return alternatives.flatMap { $0.members.map(\.key) }
    }

    /// Whether the operation needs the credential the auth section carries.
    func requiresAuth(_ operation: Spot) -> Bool {
        let names = requirement(operation["security"]) ?? service.defaultSecurity
        return names.contains { service.carriedSchemes.contains($0) }
    }
}
