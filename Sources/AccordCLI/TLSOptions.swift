import AccordHTTP
import AccordMock
import AccordServer
import AccordTLS
import Foundation

/// `serve --tls`: where the certificate comes from and where the CA is offered.
struct TLSOptions {
    static let options = [
        Arguments.Option(name: "tls", valueName: nil,
                         help: "Serve HTTPS (TLS 1.2/1.3) with a certificate from a local CA made on first use (default port 8443)."),
        Arguments.Option(name: "tls-dir", valueName: "DIR", help: "Where the local CA and the server certificate are kept (default: ~/.accord/tls)."),
        Arguments.Option(name: "tls-name", valueName: "NAME", help: "Another DNS name or address the server certificate covers; repeatable."),
        Arguments.Option(name: "tls-cert", valueName: "FILE", help: "Your own certificate chain (PEM) instead of the local CA's; needs --tls-key."),
        Arguments.Option(name: "tls-key", valueName: "FILE", help: "The private key (PEM, unencrypted) of --tls-cert."),
        Arguments.Option(name: "ca-port", valueName: "N",
                         help: "With --tls, the plain HTTP port that offers the CA to devices (default: 8080, or a free one with --port 0)."),
    ]

    /// Where the certificate comes from.
    enum Source {
        /// The local CA in this directory, for the machine's names and these.
        case localAuthority(directory: String, extraNames: [String])
        /// The user's own files.
        case files(certificate: String, key: String)
    }

    var source: Source
    var caPort: UInt16

    /// nil without `--tls`; `serverPort` is the HTTPS port given (0 asks for a free one).
    init?(_ arguments: Arguments, serverPort: UInt16) throws(UsageError) {
        let implied = ["tls-dir", "tls-name", "tls-cert", "tls-key", "ca-port"].filter { !arguments.all($0).isEmpty }
        guard arguments.has("tls") else {
            if let first = implied.first { throw UsageError("'--\(first)' needs --tls") }
            return nil
        }
        switch (arguments["tls-cert"], arguments["tls-key"]) {
        case (let certificate?, let key?):
            guard arguments["tls-dir"] == nil, arguments.all("tls-name").isEmpty else {
                throw UsageError("'--tls-cert' and '--tls-key' serve your own certificate; '--tls-dir' and '--tls-name' are for the local CA's")
            }
            source = .files(certificate: certificate, key: key)
        case (nil, nil):
            let names = arguments.all("tls-name")
            if let bad = names.first(where: { !MachineNames.isAddress($0) && !MachineNames.isDNSName($0) }) {
                throw UsageError("'--tls-name' takes a DNS name or an IP address, found '\(bad)'")
            }
            source = .localAuthority(directory: arguments["tls-dir"] ?? LocalAuthority.defaultDirectory, extraNames: names)
        default:
            throw UsageError("'--tls-cert' and '--tls-key' go together")
        }
        if let text = arguments["ca-port"] {
            guard let port = UInt16(text) else { throw UsageError("'--ca-port' takes a number from 0 to 65535, found '\(text)'") }
            caPort = port
        } else {
            caPort = serverPort == 0 ? 0 : 8080
        }
        if caPort != 0 && caPort == serverPort { throw UsageError("'--ca-port' \(caPort) is the HTTPS port too; give another") }
    }

    /// What the server presents, and the CA to offer (nil for the user's own certificate).
    struct Prepared {
        var identity: TLSIdentity
        var authority: LocalAuthority.Prepared?
        /// The banner's account of the certificate.
        var summary: String
    }

    func prepare() throws(TLSError) -> Prepared {
        switch source {
        case .files(let certificate, let key):
            let identity = try TLSIdentity(certificateFile: certificate, keyFile: key)
            return Prepared(identity: identity, authority: nil,
                            summary: "your certificate for \(identity.commonName) (\(certificate), \(identity.daysLeft) days left)")
        case .localAuthority(let directory, let extraNames):
            let store = LocalAuthority(directory: directory)
            let names = MachineNames.all(adding: extraNames)
            let prepared = try store.prepare(names: names)
            let what = switch prepared.event {
            case .created: "made a new local CA and server certificate"
            case .renewed(let reason): "renewed the server certificate (\(reason))"
            case .reused: "reused the server certificate"
            }
            return Prepared(identity: prepared.identity, authority: prepared,
                            summary: "\(what) for \(names.joined(separator: ", ")) in \(directory), \(prepared.identity.daysLeft) days left")
        }
    }
}

/// The local CA offered to devices: `GET /__accord/ca.pem` and
/// `GET /__accord/ca.mobileconfig`, over HTTPS beside the API and alone on the plain
/// HTTP listener of `--ca-port`, where a phone without the CA can fetch them.
struct TrustDownloads: Sendable {
    static let pemPath = "/__accord/ca.pem"
    static let profilePath = "/__accord/ca.mobileconfig"

    let authorityPEM: [UInt8]
    let profile: [UInt8]

    init(authority: LocalAuthority.Prepared) throws(TLSError) {
        authorityPEM = authority.authorityPEM
        profile = try TrustProfile.mobileconfig(authorityDER: authority.authorityDER, commonName: "Accord local CA")
    }

    /// The CA's answer, or nil when the request is for something else.
    func answer(_ request: MockRequest) -> MockResponse? {
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
final class TrustListener: Sendable {
    private let server: HTTPServer

    var port: UInt16 { server.port }

    /// - Parameter serverURL: where the API is, for requests to other paths.
    init(_ downloads: TrustDownloads, host: String, port: UInt16, serverURL: String, console: Console) throws(HTTPServer.StartError) {
        let configuration = HTTPServer.Configuration(host: host, port: port, threads: 1, maxBodyBytes: 0, connectionLimit: 64, perIPConnectionLimit: 16)
        server = HTTPServer(configuration: configuration, handler: { downloads.answer($0) ?? downloads.elsewhere($0, serverURL: serverURL) },
                            log: { console.printError($0) })
        try server.start()
    }

    func stop() {
        server.stop(grace: .milliseconds(200))
    }
}
