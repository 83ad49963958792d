import AccordContract
import AccordHTTP
import AccordMockState
import AccordMocksFormat

/// Tells the storage, once the request is routed, what the request will read of it
/// (``RequestPreview``): a shared storage reads the token's verdict, the user's ban and
/// the session's scenario in the round trip that stores the nonce. It answers nothing.
struct PreviewStage: Stage {
    let storage: any MockStorage
    let auth: Service.Auth
    /// The lowercased name of the header carrying the token.
    let header: String
    /// The endpoints an answer of which holds `{{seq}}`.
    let numbered: Set<String>

    init(storage: any MockStorage, auth: Service.Auth, answers: [String: EndpointAnswers]) {
        self.storage = storage
        self.auth = auth
        header = auth.header.lowercased()
        numbered = Set(answers.filter { $0.value.uses(.sequence) }.keys)
    }

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard let endpoint = exchange.route?.endpoint else { return try next(&exchange) }
        let checksToken = if case .bearer = auth.kind { endpoint.requiresAuth && !auth.loginEndpoints.isEmpty } else { false }
        storage.preview(RequestPreview(accessToken: checksToken ? TokenStore.token(in: exchange.request.headers[header], scheme: auth.scheme) : nil,
                                       namedSession: exchange.request.headers[MockEngine.sessionHeader],
                                       takesSequence: numbered.contains(endpoint.id)))
        return try next(&exchange)
    }
}
