import AccordContract
import AccordJSON

/// Completes the token flows of answers whose tokens were not holes: a login issues
/// real tokens to the user its answer names, a refresh rotates them (or is refused),
/// logout revokes them. The issued tokens are written over the fixture's.
struct TokenFlowStage: RoutedStage {
    let grant: TokenGrant
    /// The lowercased name of the header carrying the access token.
    let authHeader: String
    let envelopeNames: Service.Envelope

    func run(_ exchange: inout Exchange, route: Route) -> StageResult {
        // A fault that loses the answer stands for a failure before the backend: no tokens move (as in AnswerStage).
        // One that only delays or slows it delivers the answer, so its tokens are issued, rotated or revoked.
        guard let response = exchange.response, response.summary.code == 0, !exchange.tokensIssued, exchange.fault?.losesTheAnswer != true else {
            return .proceed
        }
        let endpoint = route.endpoint.id
        let outcome: TokenGrant.Outcome
        var parsed: JSONValue?
        if grant.isLogin(endpoint) {
            guard let answer = response.json else { return .proceed }
            parsed = answer
            let uid: Int = if case .int(let uid)? = answer.value(at: "/\(envelopeNames.data)/user/uid") { uid } else { 0 }
            exchange.user = uid
            outcome = grant.login(endpoint: endpoint, uid: uid)
        } else if grant.isRefresh(endpoint) {
            outcome = grant.refresh(endpoint: endpoint, body: exchange.body)
        } else {
            if endpoint == grant.auth.logoutEndpoint,
               let token = TokenStore.token(in: exchange.request.headers[authHeader], scheme: grant.auth.scheme) {
                grant.tokens.revoke(accessToken: token)
            }
            return .proceed
        }
        switch outcome {
        case .refused(let refusal):
            return .answer(refusal)
        case .issued(let uid, let pair):
            exchange.user = uid
            if let answer = parsed ?? response.json { exchange.response = withTokens(pair, in: answer, response) }
            return .proceed
        }
    }

    /// The answer (parsed as `answer`) with the issued tokens written over the fixture's.
    private func withTokens(_ pair: TokenStore.Pair, in answer: JSONValue, _ response: MockResponse) -> MockResponse {
        guard case .object(var envelope) = answer,
              let index = envelope.firstIndex(where: { $0.key == envelopeNames.data }),
              case .object(var data) = envelope[index].value else { return response }
        let values: [String: JSONValue] = [
            "access_token": .string(pair.accessToken), "refresh_token": .string(pair.refreshToken),
            "access_expires_in": .int(pair.accessExpiresIn), "refresh_expires_in": .int(pair.refreshExpiresIn),
        ]
        for member in data.indices { if let value = values[data[member].key] { data[member].value = value } }
        envelope[index].value = .object(data)
        var patched = response
        patched.body = .bytes(JSONWriter.bytes(.object(envelope)))
        return patched
    }
}
