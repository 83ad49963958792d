import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState

/// Every token flow, for every answer the client gets (a fixture's, an injected one,
/// one a fault slows): a login issues real tokens to its user, a refresh rotates the
/// pair of its refresh token (or is refused), a logout revokes its access token.
///
/// A refresh, or a login answer that names its user literally, gets its tokens before
/// it is rendered when it has token holes (``Answer/hasTokenHoles``), so its templates
/// read them; any other successful login or refresh answer gets them written over its
/// own on the way back. A fault that loses the answer
/// stands for a failure before the backend: no tokens move.
struct TokenStage: Stage {
    let grant: TokenGrant
    /// The lowercased name of the header carrying the access token.
    let authHeader: String
    /// The envelope's data member, or nil for a plain API whose answer is the data.
    let dataMember: String?

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard let endpoint = exchange.route?.endpoint.id, grant.isLogin(endpoint) || grant.isRefresh(endpoint) || endpoint == grant.auth.logoutEndpoint
        else { return try next(&exchange) }
        if exchange.answerIsDelivered, exchange.draft?.answer.hasTokenHoles == true,
           let outcome = try grant(endpoint: endpoint, uid: exchange.draft?.answer.loginUID, body: exchange.body) {
            switch outcome {
            case .refused(let refusal): return refusal
            case .issued(let uid, let pair):
                exchange.identify(uid)
                exchange.draft?.context.issued = pair
                return try next(&exchange)
            }
        }
        let response = try next(&exchange)
        guard exchange.answerIsDelivered, response.summary.code == 0 else { return response }
        if endpoint == grant.auth.logoutEndpoint {
            if let token = TokenStore.token(in: exchange.request.headers[authHeader], scheme: grant.auth.scheme) {
                try grant.tokens.revoke(accessToken: token)
            }
            return response
        }
        guard let answer = response.json else { return response }
        let uid: Int = if case .int(let uid)? = answer.value(at: (dataMember.map { "/\($0)" } ?? "") + "/user/uid") { uid } else { 0 }
        switch try grant(endpoint: endpoint, uid: uid, body: exchange.body) {
        case .refused(let refusal)?: return refusal
        case .issued(let uid, let pair)?:
            exchange.identify(uid)
            return withTokens(pair, in: answer, response)
        case nil: return response
        }
    }

    /// A login's tokens for `uid` (when the answer names one), or the refresh's rotation.
    private func grant(endpoint: String, uid: Int?, body: JSONValue?) throws(StorageError) -> TokenGrant.Outcome? {
        if grant.isRefresh(endpoint) { return try grant.refresh(body: body) }
        guard let uid else { return nil }
        return try grant.login(uid: uid)
    }

    /// The answer (parsed as `answer`) with the issued tokens written over the fixture's.
    private func withTokens(_ pair: TokenPair, in answer: JSONValue, _ response: MockResponse) -> MockResponse {
        guard case .object(var envelope) = answer else { return response }
        let index = dataMember.flatMap { member in envelope.firstIndex { $0.key == member } }
        guard case .object(var data) = index.map({ envelope[$0].value }) ?? (dataMember == nil ? answer : .null) else { return response }
        let values: [String: JSONValue] = [
            "access_token": .string(pair.accessToken), "refresh_token": .string(pair.refreshToken),
            "access_expires_in": .int(pair.accessExpiresIn), "refresh_expires_in": .int(pair.refreshExpiresIn),
        ]
        for member in data.indices { if let value = values[data[member].key] { data[member].value = value } }
        if let index { envelope[index].value = .object(data) } else { envelope = data }
        var patched = response
        patched.body = .bytes(JSONWriter.bytes(.object(envelope)))
        return patched
    }
}
