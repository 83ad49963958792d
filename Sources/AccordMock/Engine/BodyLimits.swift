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
    /// The multipart endpoints' full paths without parameters, by method, and the
    /// methods and segments of those with parameters: a request that fits none is not
    /// routed here at all (the transport asks for every request with a body).
    private let uploadPaths: [String: Set<String>]
    private let uploadTemplates: [(method: String, segments: [PathTemplate.Segment])]
    private let basePath: String

    init(contract: Contract, router: Router, json: Int) {
        self.json = json
        self.router = router
        upload = max(json, contract.largestMultipartBody)
        multipart = Dictionary(uniqueKeysWithValues: contract.endpoints.compactMap { endpoint in endpoint.largestMultipartBody.map { (endpoint.id, $0) } })
        let uploads = contract.endpoints.filter { $0.multipart != nil }
        basePath = contract.service.basePath
        uploadPaths = Dictionary(grouping: uploads.filter { $0.path.parameterNames.isEmpty }, by: { $0.method.rawValue })
            .mapValues { [basePath] endpoints in Set(endpoints.map { basePath + $0.path.description }) }
        uploadTemplates = uploads.filter { !$0.path.parameterNames.isEmpty }.map { ($0.method.rawValue, $0.path.segments) }
    }

    /// Whether a multipart endpoint's route could fit: its method, its number of segments and its literal ones.
    private func mayBeUpload(method: String, path: String) -> Bool {
        if uploadPaths[method]?.contains(path) == true { return true }
        // An encoded path is the router's to read.
        if !uploadPaths.isEmpty || !uploadTemplates.isEmpty, path.utf8.contains(UInt8(ascii: "%")) { return true }
        guard uploadTemplates.contains(where: { $0.method == method }), path.hasPrefix(basePath) else { return false }
        let pieces = path.dropFirst(basePath.count).split(separator: "/")
        return uploadTemplates.contains { route in
            route.method == method && route.segments.count == pieces.count && zip(route.segments, pieces).allSatisfy { segment, piece in
                if case .literal(let text) = segment { return text.utf8.elementsEqual(piece.utf8) }
                return true
            }
        }
    }

    /// The largest body a request with this method and target (as sent, with its query) may send.
    public func limit(method: String, target: String) -> Int {
        let path = target.utf8.firstIndex(of: UInt8(ascii: "?")).map { String(target[..<$0]) } ?? target
        if path.hasPrefix(MockEngine.storagePrefix) { return method == "PUT" ? upload : json }
        guard mayBeUpload(method: method, path: path), case .endpoint(let endpoint, _) = router.match(method: method, path: path) else { return json }
        return multipart[endpoint.id] ?? json
    }
}
