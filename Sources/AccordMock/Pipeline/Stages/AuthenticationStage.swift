import AccordContract
import AccordHTTP
import AccordMockState

/// Checks the credential of an endpoint that needs one. A bearer token is checked
/// against the token store: expired, invalidated, revoked, missing or banned each
/// answer with the contract's code for that flow, and a valid token names the
/// request's user (and its session, when the request names none). A contract with no
/// login endpoint issues no tokens, so any well-formed token is let in. An API key must
/// be one the contract declares.
struct AuthenticationStage: Stage {
    let tokens: any TokenStorage
    /// The lowercased name of the header carrying the token.
    let header: String
    /// The lowercased name of the API key's header, when the key travels in one.
    let keyHeader: String
    let auth: Service.Auth
    let envelopes: Envelopes

    init(tokens: any TokenStorage, auth: Service.Auth, envelopes: Envelopes) {
        self.tokens = tokens
        self.auth = auth
        header = auth.header.lowercased()
        keyHeader = auth.apiKey?.name.lowercased() ?? ""
        self.envelopes = envelopes
    }

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard exchange.route?.endpoint.requiresAuth == true else { return try next(&exchange) }
        switch auth.kind {
        case .none: return try next(&exchange)
        case .apiKey(let key): return try check(key, &exchange, next: next)
        case .bearer where auth.loginEndpoints.isEmpty:
            guard let value = exchange.request.headers[header] else {
                return envelopes.answer(.forceLogout, reason: "missing '\(auth.header): \(auth.scheme) <token>'", verdict: .unauthorized)
            }
            if let problem = TokenShapeStage.problem(value, scheme: auth.scheme) {
                return envelopes.answer(.tokenInvalid, reason: "\(auth.header) \(problem)", verdict: .unauthorized)
            }
            return try next(&exchange)
        case .bearer: break
        }
        let (role, reason): (FlowCodes.Role, String)
        switch try tokens.verdict(authorization: exchange.request.headers[header], scheme: auth.scheme) {
        case .valid(let uid):
            exchange.identify(uid)
            if let ban = try tokens.ban(uid: uid) { return envelopes.banned(ban) }
            return try next(&exchange)
        case .expired(let uid):
            exchange.identify(uid)
            (role, reason) = (.tokenExpired, "the access token expired")
        case .invalidated:
            (role, reason) = (.tokenInvalid, "the access token is not valid on this server")
        case .revoked(let uid):
            exchange.identify(uid)
            (role, reason) = (.forceLogout, "the access token was revoked")
        case .missing:
            (role, reason) = (.forceLogout, "missing '\(auth.header): \(auth.scheme) <access_token>'")
        }
        return envelopes.answer(role, reason: reason, verdict: .unauthorized)
    }

    /// Lets in a request carrying one of the contract's API keys where the contract says.
    private func check(_ key: Service.Auth.APIKey, _ exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        let value: String? = switch key.location {
        case .header: exchange.request.headers[keyHeader]
        case .query: exchange.request.query.first { $0.name == key.name }?.value
        }
        if let value, key.keys.contains(value) { return try next(&exchange) }
        let place = "the \(key.location.rawValue) '\(key.name)'"
        let reason = value == nil ? "missing the API key in \(place)" : "\(place) is not an API key the contract declares"
        return envelopes.answer(.forceLogout, reason: reason, verdict: .unauthorized)
    }
}
