import AccordContract
import AccordHTTP
import AccordJSON

/// The one place tokens are granted: a login issues a pair unless its user is banned,
/// a refresh rotates the pair its refresh token belongs to or is refused.
package struct TokenGrant: Sendable {
    package enum Outcome: Sendable {
        case issued(uid: Int, pair: TokenPair)
        /// The ban answer, or the refresh-invalid answer.
        case refused(MockResponse)
    }

    package let tokens: any TokenStorage
    package let auth: Service.Auth
    package let envelopes: Envelopes

    package init(tokens: any TokenStorage, auth: Service.Auth, envelopes: Envelopes) {
        self.tokens = tokens
        self.auth = auth
        self.envelopes = envelopes
    }

    /// Whether `endpoint` rotates tokens.
    package func isRefresh(_ endpoint: String) -> Bool {
        endpoint == auth.refreshEndpoint
    }

    /// Whether `endpoint` issues tokens.
    package func isLogin(_ endpoint: String) -> Bool {
        auth.loginEndpoints.contains(endpoint)
    }

    /// Rotates the pair of the request's `refresh_token`.
    package func refresh(body: JSONValue?) throws(StorageError) -> Outcome {
        guard case .string(let token)? = body?["refresh_token"], let (uid, pair) = try tokens.refresh(token) else {
            return .refused(envelopes.refreshRefused())
        }
        return .issued(uid: uid, pair: pair)
    }

    /// Issues a pair to `uid`, unless it is banned.
    package func login(uid: Int) throws(StorageError) -> Outcome {
        switch try tokens.login(uid: uid) {
        case .issued(let pair): return .issued(uid: uid, pair: pair)
        case .banned(let ban): return .refused(envelopes.banned(ban))
        }
    }
}
