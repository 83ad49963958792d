import AccordServer
import AccordTLS

/// `serve --tls`: where the certificate comes from and where the local CA is offered.
public struct TLSSetup: Sendable {
    /// Where the certificate comes from.
    public enum Source: Sendable {
        /// The local CA in this directory, for the machine's names and these.
        case localAuthority(directory: String, extraNames: [String])
        /// The user's own files.
        case files(certificate: String, key: String)
    }

    public var source: Source
    /// The plain HTTP port that offers the local CA to devices; 0 picks a free one.
    public var caPort: UInt16

    public init(source: Source, caPort: UInt16) {
        self.source = source
        self.caPort = caPort
    }

    /// What the server presents, and the CA to offer (nil for the user's own certificate).
    struct Prepared {
        var identity: TLSIdentity
        var authority: LocalAuthority.Prepared?
        /// The banner's account of the certificate.
        var summary: String
    }

    /// The identity to present: the user's files read, or the local CA's certificate made, renewed or reused.
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
