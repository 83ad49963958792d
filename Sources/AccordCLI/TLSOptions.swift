import AccordCommandLine
import AccordHosting
import AccordTLS

/// `serve --tls` and its options, read as a ``TLSSetup``.
enum TLSOptions {
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

    /// nil without `--tls`; `serverPort` is the HTTPS port given (0 asks for a free one).
    static func setup(_ arguments: Arguments, serverPort: UInt16) throws(UsageError) -> TLSSetup? {
        let implied = ["tls-dir", "tls-name", "tls-cert", "tls-key", "ca-port"].filter { !arguments.all($0).isEmpty }
        guard arguments.has("tls") else {
            if let first = implied.first { throw UsageError("'--\(first)' needs --tls") }
            return nil
        }
        let source: TLSSetup.Source
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
        let caPort = try arguments.port("ca-port") ?? (serverPort == 0 ? 0 : 8080)
        if caPort != 0 && caPort == serverPort { throw UsageError("'--ca-port' \(caPort) is the HTTPS port too; give another") }
        return TLSSetup(source: source, caPort: caPort)
    }
}
