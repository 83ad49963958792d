import AccordContract
import AccordHTTPClient
import AccordJSON
import AccordSigning
import AccordValidation
import Foundation

/// Turns a contract example into a signed request to the backend (``ContractRequest``),
/// with the refresh token this run signed in with.
struct RequestBuilder: Sendable {
    let contract: Contract
    let baseURL: String
    private let builder: ContractRequest.Builder

    init(contract: Contract, settings: Verifier.Settings) throws(Verifier.SetupError) {
        self.contract = contract
        baseURL = settings.baseURL
        var app: (key: String, secret: String)?
        if let key = settings.appKey {
            guard let secret = settings.appSecret ?? contract.service.signing.apps[key] else {
                throw Verifier.SetupError(description: "no secret for the app key '\(key)': give --app-key KEY:SECRET")
            }
            app = (key, secret)
        }
        do {
            builder = try ContractRequest.Builder(contract: contract, app: app, given: settings.headers)
        } catch {
            throw Verifier.SetupError(description: error.message)
        }
    }

    var appKey: String { builder.appKey }

    func isSigned(_ endpoint: Endpoint) -> Bool {
        builder.isSigned(endpoint)
    }

    /// The request of `example`; `body` replaces the example's (the invalid-body check).
    func request(for example: Endpoint.Example, of endpoint: Endpoint, session: Verifier.Session, timestamp: Int64? = nil,
                 body replacement: JSONValue? = nil) -> HTTPClient.Request {
        var body = replacement ?? (endpoint.multipart == nil ? example.body?.value : nil)
        // A refresh sends the refresh token this run signed in with, not the example's.
        if endpoint.id == contract.service.auth.refreshEndpoint, let token = session.refreshToken, case .object(var members)? = body {
            for index in members.indices where members[index].key == "refresh_token" { members[index].value = .string(token) }
            body = .object(members)
        }
        let nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        let request = builder.request(to: endpoint, parameters: example.parameters?.value, query: example.query?.value, body: body,
                                      accessToken: session.accessToken, timestamp: timestamp ?? Int64(Date().timeIntervalSince1970), nonce: nonce)
        // A base URL that already ends in the base path (`http://host/api/v1`) is not given it twice.
        let basePath = contract.service.basePath
        let target = !basePath.isEmpty && baseURL.hasSuffix(basePath) ? String(request.target.dropFirst(basePath.count)) : request.target
        return HTTPClient.Request(method: request.method, url: baseURL + target, headers: request.headers, body: request.body)
    }
}
