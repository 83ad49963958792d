import AccordContract
import AccordHTTP

/// Checks the bearer token of an endpoint that needs one against the token store:
/// expired, invalidated, revoked, missing or banned each answer with the contract's
/// code for that flow. A valid token names the request's user (and its session, when
/// the request names none).
struct AuthenticationStage: Stage {
    let tokens: any TokenStorage
    /// The lowercased name of the header carrying the token.
    let header: String
    let auth: Service.Auth
    let envelopes: Envelopes

    init(tokens: any TokenStorage, auth: Service.Auth, envelopes: Envelopes) {
        self.tokens = tokens
        self.auth = auth
        header = auth.header.lowercased()
        self.envelopes = envelopes
    }

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard exchange.route?.endpoint.requiresAuth == true else { return try next(&exchange) }
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
}
