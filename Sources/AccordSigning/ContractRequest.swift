import AccordContract
import AccordJSON
import AccordValidation

/// A request to one endpoint as the contract describes it, signed: the path filled and
/// escaped, the query, the body (a small valid form for a multipart endpoint), the
/// service headers, the signing headers and the access token. `accord verify` sends
/// these to a real backend; the web console's "try it" to the mock, from the server side.
public struct ContractRequest: Sendable {
    public var method: String
    /// The base path, the filled path and the query: `/api/v1/signals/s%201?limit=20`.
    public var target: String
    public var headers: [(name: String, value: String)]
    public var body: [UInt8]

    /// Signs requests with one app's key and secret, adding the service headers.
    public struct Builder: Sendable {
        public let contract: Contract
        public let appKey: String
        let appSecret: String
        /// The service headers each request carries (`X-Device-Id`, …).
        public let serviceHeaders: [(name: String, value: String)]
        private let signer: RequestSigner
        private let unsigned: Set<String>

        /// Why a builder cannot be made.
        public struct SetupError: Error, Sendable {
            public var message: String
        }

        /// - Parameters:
        ///   - app: the key and secret; the contract's first app by default.
        ///   - given: values for service headers, by name (any case), over the contract's own.
        public init(contract: Contract, app: (key: String, secret: String)? = nil, given: [String: String] = [:]) throws(SetupError) {
            self.contract = contract
            let signing = contract.service.signing
            if let key = app?.key ?? signing.apps.keys.sorted().first, let secret = app?.secret ?? signing.apps[key] {
                (appKey, appSecret) = (key, secret)
            } else if signing.isEnabled {
                throw SetupError(message: "no app key to sign with: give --app-key KEY:SECRET")
            } else {
                // A contract that signs nothing needs no app.
                (appKey, appSecret) = ("", "")
            }
            signer = RequestSigner(settings: signing)
            unsigned = contract.unsignedEndpoints
            var headers: [(name: String, value: String)] = []
            var missing: [String] = []
            for field in contract.service.headers {
                if let value = given.first(where: { $0.key.lowercased() == field.name.lowercased() })?.value {
                    headers.append((field.name, value))
                } else if let value = Self.value(of: field.schema, in: contract) {
                    headers.append((field.name, value))
                } else if !field.isOptional {
                    missing.append(field.name)
                }
            }
            guard missing.isEmpty else {
                throw SetupError(message: "the contract gives no value for the header\(missing.count == 1 ? "" : "s") "
                                 + missing.joined(separator: ", ") + "; give " + missing.map { "--header \($0):VALUE" }.joined(separator: " "))
            }
            serviceHeaders = headers
        }

        /// A value the contract itself gives a header: its default, its first enum case,
        /// the shortest match of its pattern, or any text when it is a string without one.
        private static func value(of schema: Schema, in contract: Contract) -> String? {
            if case .string(let text)? = schema.defaultValue?.value { return text }
            switch contract.resolvedKind(of: schema) {
            case .enumeration(let cases): return cases.cases.first.map(\.value.description)
            case .primitive(.string):
                guard let pattern = schema.constraints.pattern else {
                    return String(repeating: "v", count: max(schema.constraints.minLength ?? 8, 8)).prefix(schema.constraints.maxLength ?? 64).description
                }
                return PatternExample.shortest(matching: pattern)
            default: return nil
            }
        }

        /// Whether the contract has `endpoint` signed.
        public func isSigned(_ endpoint: Endpoint) -> Bool {
            contract.service.signing.isEnabled && !unsigned.contains(endpoint.id)
        }

        /// The request to `endpoint` with these values.
        /// - Parameters:
        ///   - parameters: the path parameters, an object.
        ///   - query: an object; an array member repeats its name.
        ///   - body: the JSON body; for a multipart endpoint, nil sends a small valid form.
        ///   - timestamp: the signing time, in Unix seconds.
        ///   - nonce: the signing nonce.
        public func request(to endpoint: Endpoint, parameters: JSONValue?, query queryValue: JSONValue?, body: JSONValue?,
                            accessToken: String?, timestamp: Int64, nonce: String) -> ContractRequest {
            var path = ""
            for segment in endpoint.path.segments {
                switch segment {
                case .literal(let text): path += "/" + text
                case .parameter(let name):
                    let value = parameters?[name].flatMap(SortedParams.text(of:)) ?? ""
                    path += "/" + PercentEncoding.pathSegment(value)
                }
            }
            var query: [(name: String, value: String)] = []
            if case .object(let members)? = queryValue {
                for member in members {
                    if case .array(let items) = member.value {
                        query += items.compactMap { SortedParams.text(of: $0).map { (member.key, $0) } }
                    } else if let text = SortedParams.text(of: member.value) {
                        query.append((member.key, text))
                    }
                }
            }
            // An API key in the query travels with every request that needs one (and is not signed).
            if endpoint.requiresAuth, let key = contract.service.auth.apiKey, key.location == .query, let first = key.keys.first {
                query.append((key.name, first))
            }
            var signedBody = body
            // A multipart endpoint gets a small valid form; its text parts are what the signature covers.
            let form = body == nil ? endpoint.multipart.map { MultipartForm.sample(for: $0, types: contract.types) } : nil
            if let form { signedBody = .object(form.signedFields.map { .init($0.name, .string($0.value)) }) }
            var headers = serviceHeaders
            if isSigned(endpoint) {
                let signing = contract.service.signing
                let time = String(timestamp)
                let input = RequestSigner.Input(appKey: appKey, timestamp: time, nonce: nonce, sortedParams: SortedParams.make(query: query, body: signedBody))
                headers += [(signing.appKeyHeader, appKey), (signing.timestampHeader, time), (signing.nonceHeader, nonce),
                            (signing.signatureHeader, signer.signature(input, secret: appSecret))]
            }
            switch contract.service.auth.kind {
            case .bearer where endpoint.requiresAuth:
                if let accessToken { headers.append((contract.service.auth.header, "\(contract.service.auth.scheme) \(accessToken)")) }
            case .apiKey(let key) where endpoint.requiresAuth && key.location == .header:
                if let first = key.keys.first { headers.append((key.name, first)) }
            default: break
            }
            var bytes: [UInt8] = []
            if let form {
                bytes = form.bytes
                headers.append(("Content-Type", form.contentType))
            } else if let body {
                bytes = JSONWriter.bytes(body)
                headers.append(("Content-Type", "application/json"))
            }
            let queryText = query.isEmpty ? "" : "?" + query.map { PercentEncoding.component($0.name) + "=" + PercentEncoding.component($0.value) }.joined(separator: "&")
            // The root route of a service without a base path is `/`, not the empty target.
            let fullPath = contract.service.basePath + path
            return ContractRequest(method: endpoint.method.rawValue, target: (fullPath.isEmpty ? "/" : fullPath) + queryText, headers: headers, body: bytes)
        }
    }
}
