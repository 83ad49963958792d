import AccordContract

/// How large a request's body may be, by method and target: an upload endpoint's
/// declared maximum, the contract's largest upload for a direct `PUT` to storage, and
/// ``MockOptions/maxBodyBytes`` (`--max-body`) for everything else — every JSON
/// endpoint and the control API — so one upload endpoint does not make every JSON
/// endpoint read megabytes.
public struct BodyLimits: Sendable {
    /// The limit of JSON bodies and the control API.
    public let json: Int
    /// The limit of a direct upload (`PUT /__storage/ID`).
    public let upload: Int
    private let router: Router
    /// Multipart endpoints' limits by endpoint id.
    private let multipart: [String: Int]

    init(contract: Contract, router: Router, json: Int) {
        self.json = json
        self.router = router
        upload = max(json, contract.largestMultipartBody)
        multipart = Dictionary(uniqueKeysWithValues: contract.endpoints.compactMap { endpoint in endpoint.largestMultipartBody.map { (endpoint.id, $0) } })
    }

    /// The largest body a request with this method and target (as sent, with its query) may send.
    public func limit(method: String, target: String) -> Int {
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(target[..<$0]) } ?? target
        if path.hasPrefix(MockEngine.storagePrefix) { return method == "PUT" ? upload : json }
        guard !multipart.isEmpty, !path.hasPrefix(MockEngine.controlPrefix),
              case .endpoint(let endpoint, _) = router.match(method: method, path: path) else { return json }
        return multipart[endpoint.id] ?? json
    }
}
