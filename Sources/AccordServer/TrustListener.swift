import AccordHTTP
import AccordTLS

/// The local CA offered to devices: `GET /__accord/ca.pem` and
/// `GET /__accord/ca.mobileconfig`, over HTTPS beside the API and alone on the plain
/// HTTP listener of `--ca-port`, where a phone without the CA can fetch them.
public struct TrustDownloads: Sendable {
    public static let pemPath = "/__accord/ca.pem"
    public static let profilePath = "/__accord/ca.mobileconfig"

    let authorityPEM: [UInt8]
    let profile: [UInt8]

    public init(authority: LocalAuthority.Prepared) throws(TLSError) {
        authorityPEM = authority.authorityPEM
        profile = try TrustProfile.mobileconfig(authorityDER: authority.authorityDER, commonName: "Accord local CA")
    }

    /// The CA's answer, or nil when the request is for something else.
    public func answer(_ request: MockRequest) -> MockResponse? {
        guard request.method == "GET" || request.method == "HEAD" else { return nil }
        switch request.path {
        case Self.pemPath:
            return file(authorityPEM, type: "application/x-pem-file", name: "accord-ca.pem")
        case Self.profilePath:
            return file(profile, type: TrustProfile.mediaType, name: "accord-ca.mobileconfig")
        default:
            return nil
        }
    }

    /// What the plain listener answers for anything but the two files: where the API is.
    func elsewhere(_ request: MockRequest, serverURL: String) -> MockResponse {
        let text = "This port offers only the local CA: \(Self.pemPath) and \(Self.profilePath). The API is at \(serverURL)\n"
        return MockResponse(status: 404, headers: [("Content-Type", "text/plain; charset=utf-8")], body: .bytes(Array(text.utf8)),
                            summary: .init(verdict: .control))
    }

    private func file(_ bytes: [UInt8], type: String, name: String) -> MockResponse {
        MockResponse(status: 200, headers: [("Content-Type", type), ("Content-Disposition", "attachment; filename=\"\(name)\""),
                                            ("Cache-Control", "no-store"), ("X-Content-Type-Options", "nosniff")],
                     body: .bytes(bytes), summary: .init(verdict: .control))
    }
}

/// The plain HTTP listener of `--ca-port`, answering only ``TrustDownloads``.
public final class TrustListener: Sendable {
    private let server: HTTPServer

    public var port: UInt16 { server.port }

    /// - Parameters:
    ///   - serverURL: where the API is, for requests to other paths.
    ///   - log: receives the listener's own problems.
    public init(_ downloads: TrustDownloads, host: String, port: UInt16, serverURL: String,
                log: @escaping @Sendable (String) -> Void) throws(HTTPServer.StartError) {
        let configuration = HTTPServer.Configuration(host: host, port: port, threads: 1, maxBodyBytes: 0, connectionLimit: 64, perIPConnectionLimit: 16)
        server = HTTPServer(configuration: configuration, handler: { downloads.answer($0) ?? downloads.elsewhere($0, serverURL: serverURL) },
                            log: log)
        try server.start()
    }

    public func stop() {
        server.stop(grace: .milliseconds(200))
    }
}
