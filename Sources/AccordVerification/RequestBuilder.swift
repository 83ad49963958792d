import AccordContract
import AccordHTTPClient
import AccordJSON
import AccordSigning
import AccordValidation
import Foundation

/// Turns a contract example into a signed request to the backend: the path filled and
/// escaped, the query, the body, the service headers, the signing headers, the token.
struct RequestBuilder: Sendable {
    let contract: Contract
    let baseURL: String
    let headers: [(name: String, value: String)]
    let appKey: String
    let appSecret: String
    private let signer: RequestSigner
    private let unsigned: Set<String>

    init(contract: Contract, settings: Verifier.Settings) throws(Verifier.SetupError) {
        self.contract = contract
        baseURL = settings.baseURL
        let signing = contract.service.signing
        guard let key = settings.appKey ?? signing.apps.keys.sorted().first, let secret = settings.appSecret ?? signing.apps[key] else {
            throw Verifier.SetupError(description: "no app key to sign with: give --app-key KEY:SECRET")
        }
        appKey = key
        appSecret = secret
        signer = RequestSigner(settings: signing)
        unsigned = contract.unsignedEndpoints
        var headers: [(name: String, value: String)] = []
        var missing: [String] = []
        for field in contract.service.headers {
            if let given = settings.headers.first(where: { $0.key.lowercased() == field.name.lowercased() })?.value {
                headers.append((field.name, given))
            } else if let value = Self.value(of: field.schema, in: contract) {
                headers.append((field.name, value))
            } else if !field.isOptional {
                missing.append(field.name)
            }
        }
        guard missing.isEmpty else {
            throw Verifier.SetupError(description: "the contract gives no value for the header\(missing.count == 1 ? "" : "s") "
                                      + missing.joined(separator: ", ") + "; give " + missing.map { "--header \($0):VALUE" }.joined(separator: " "))
        }
        self.headers = headers
    }

    /// A value the contract itself gives a header: its default, its first enum case, or
    /// any text when it is a string without a pattern.
    private static func value(of schema: Schema, in contract: Contract) -> String? {
        if case .string(let text)? = schema.defaultValue?.value { return text }
        switch contract.resolvedKind(of: schema) {
        case .enumeration(let cases): return cases.cases.first.map(\.value.description)
        case .primitive(.string) where schema.constraints.pattern == nil:
            return String(repeating: "v", count: max(schema.constraints.minLength ?? 8, 8)).prefix(schema.constraints.maxLength ?? 64).description
        default: return nil
        }
    }

    func isSigned(_ endpoint: Endpoint) -> Bool {
        !unsigned.contains(endpoint.id)
    }

    /// The request of `example`; `body` replaces the example's (the invalid-body check).
    func request(for example: Endpoint.Example, of endpoint: Endpoint, session: Verifier.Session, timestamp: Int64? = nil,
                 body replacement: JSONValue? = nil) -> HTTPClient.Request {
        var path = ""
        for segment in endpoint.path.segments {
            switch segment {
            case .literal(let text): path += "/" + text
            case .parameter(let name):
                let value = example.parameters?.value[name].flatMap(SortedParams.text(of:)) ?? ""
                path += "/" + PercentEncoding.pathSegment(value)
            }
        }
        var query: [(name: String, value: String)] = []
        if case .object(let members)? = example.query?.value {
            for member in members {
                if case .array(let items) = member.value {
                    query += items.compactMap { SortedParams.text(of: $0).map { (member.key, $0) } }
                } else if let text = SortedParams.text(of: member.value) {
                    query.append((member.key, text))
                }
            }
        }
        var body = replacement ?? example.body?.value
        // A multipart endpoint gets a small valid form; its text parts are what the signature covers.
        let form = endpoint.multipart.map { MultipartForm.sample(for: $0, types: contract.types) }
        if let form, replacement == nil {
            body = .object(form.signedFields.map { .init($0.name, .string($0.value)) })
        }
        // A refresh sends the refresh token this run signed in with, not the example's.
        if endpoint.id == contract.service.auth.refreshEndpoint, let token = session.refreshToken, case .object(var members)? = body {
            for index in members.indices where members[index].key == "refresh_token" { members[index].value = .string(token) }
            body = .object(members)
        }
        var headers = self.headers
        if isSigned(endpoint) {
            let signing = contract.service.signing
            let time = String(timestamp ?? Int64(Date().timeIntervalSince1970))
            let nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
            let input = RequestSigner.Input(appKey: appKey, timestamp: time, nonce: nonce, sortedParams: SortedParams.make(query: query, body: body))
            headers += [(signing.appKeyHeader, appKey), (signing.timestampHeader, time), (signing.nonceHeader, nonce),
                        (signing.signatureHeader, signer.signature(input, secret: appSecret))]
        }
        if endpoint.requiresAuth, let token = session.accessToken {
            headers.append((contract.service.auth.header, "\(contract.service.auth.scheme) \(token)"))
        }
        var bytes: [UInt8] = []
        if let form, replacement == nil {
            bytes = form.bytes
            headers.append(("Content-Type", form.contentType))
        } else if let body {
            bytes = JSONWriter.bytes(body)
            headers.append(("Content-Type", "application/json"))
        }
        let target = contract.service.basePath.isEmpty || baseURL.hasSuffix(contract.service.basePath) ? path : contract.service.basePath + path
        let queryText = query.isEmpty ? "" : "?" + query.map { PercentEncoding.component($0.name) + "=" + PercentEncoding.component($0.value) }.joined(separator: "&")
        return HTTPClient.Request(method: endpoint.method.rawValue, url: baseURL + target + queryText, headers: headers, body: bytes)
    }
}
