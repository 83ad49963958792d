import AccordFiles
import Foundation

/// A local certificate authority kept in a directory (`~/.accord/tls` by default), and
/// the server certificate it signs for this machine's names.
///
/// The first use makes both; later uses reuse them and make a new server certificate
/// only when it lacks a name asked for, nears its expiry, or is not the CA's. Every
/// file is written `0600` in a `0700` directory.
public struct LocalAuthority: Sendable {
    /// The directory of the CA and the server certificate.
    public let directory: String

    /// The longest server certificate lifetime Apple platforms accept (398 days) less a day of margin.
    public static let maximumLeafDays = 397

    /// A server certificate with fewer days left than this is renewed.
    public static let renewalDays = 30

    /// What ``prepare(names:leafDays:)`` did.
    public enum Event: Sendable, Equatable {
        /// A new CA and server certificate.
        case created
        /// The CA kept, a new server certificate, and why.
        case renewed(reason: String)
        /// Both kept as they were.
        case reused
    }

    /// The CA and the server's identity, ready to serve.
    public struct Prepared: Sendable {
        public var identity: TLSIdentity
        /// The CA certificate, PEM and DER: what a device or simulator is told to trust.
        public var authorityPEM: [UInt8]
        public var authorityDER: [UInt8]
        public var event: Event
    }

    public init(directory: String) {
        self.directory = directory
    }

    /// `~/.accord/tls`.
    public static var defaultDirectory: String {
        FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".accord/tls").path
    }

    public var authorityPath: String { directory + "/ca.pem" }
    var authorityKeyPath: String { directory + "/ca-key.pem" }
    public var certificatePath: String { directory + "/server.pem" }
    var keyPath: String { directory + "/server-key.pem" }

    /// The CA and a server certificate valid for every one of `names`, made, renewed or
    /// reused (see ``Event``).
    /// - Parameter leafDays: the server certificate's lifetime, at most ``maximumLeafDays``.
    public func prepare(names: [String], leafDays: Int = LocalAuthority.maximumLeafDays) throws(TLSError) -> Prepared {
        try makeDirectory()
        var event = Event.reused
        let authority: (certificate: Certificate, key: PrivateKey)
        if let existing = readPair(authorityPath, authorityKeyPath), existing.certificate.secondsLeft > Self.renewalDays * 86_400 {
            authority = existing
        } else {
            let key = try PrivateKey.generate()
            let certificate = try CertificateIssuer.authority(commonName: "Accord local CA (\(MachineNames.hostName ?? "localhost"))", key: key)
            try write(certificate.pem(), to: authorityPath)
            try write(key.pem(), to: authorityKeyPath)
            authority = (certificate, key)
            event = .created
        }
        let leaf: (certificate: Certificate, key: PrivateKey)
        if event == .created {
            leaf = try issueLeaf(names: names, days: leafDays, authority: authority)
        } else if let existing = readPair(certificatePath, keyPath) {
            if let reason = renewalReason(existing.certificate, names: names, authority: authority.certificate) {
                event = .renewed(reason: reason)
                leaf = try issueLeaf(names: names, days: leafDays, authority: authority)
            } else {
                leaf = existing
            }
        } else {
            event = .renewed(reason: "no server certificate and key that belong together in \(directory)")
            leaf = try issueLeaf(names: names, days: leafDays, authority: authority)
        }
        try tightenPermissions()
        return Prepared(identity: TLSIdentity(certificate: leaf.certificate, certificatePEM: try leaf.certificate.pem(), privateKeyPEM: try leaf.key.pem()),
                        authorityPEM: try authority.certificate.pem(), authorityDER: try authority.certificate.der(), event: event)
    }

    /// Why the server certificate must be made again, or nil when it serves.
    private func renewalReason(_ certificate: Certificate, names: [String], authority: Certificate) -> String? {
        guard certificate.isSigned(by: authority) else { return "the server certificate is not signed by this CA" }
        let missing = names.filter { !certificate.covers($0) }
        if !missing.isEmpty { return "new name\(missing.count == 1 ? "" : "s"): \(missing.joined(separator: ", "))" }
        let secondsLeft = certificate.secondsLeft
        if secondsLeft < Self.renewalDays * 86_400 {
            return secondsLeft <= 0 ? "the server certificate expired" : "the server certificate expires in \(TLSIdentity.days(in: secondsLeft)) days"
        }
        return nil
    }

    private func issueLeaf(names: [String], days: Int, authority: (certificate: Certificate, key: PrivateKey)) throws(TLSError) -> (certificate: Certificate, key: PrivateKey) {
        let key = try PrivateKey.generate()
        let certificate = try CertificateIssuer.leaf(names: names, key: key, days: days, authority: authority.certificate, authorityKey: authority.key)
        try write(certificate.pem(), to: certificatePath)
        try write(key.pem(), to: keyPath)
        return (certificate, key)
    }

    /// A certificate and its key, when both files read and belong together.
    private func readPair(_ certificatePath: String, _ keyPath: String) -> (certificate: Certificate, key: PrivateKey)? {
        guard let certificateBytes = FileManager.default.contents(atPath: certificatePath), let certificate = Certificate(pem: Array(certificateBytes)),
              let keyBytes = FileManager.default.contents(atPath: keyPath), let key = PrivateKey(pem: Array(keyBytes)),
              certificate.matches(key) else { return nil }
        return (certificate, key)
    }

    private func makeDirectory() throws(TLSError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw TLSError("\(directory): cannot create the certificate directory (\(error.localizedDescription))")
        }
    }

    /// Writes through a temporary file renamed into place, so a reader never sees half a key.
    private func write(_ bytes: [UInt8], to path: String) throws(TLSError) {
        do {
            try AtomicFile.write(bytes, to: path, private: true)
        } catch {
            throw TLSError("\(error)")
        }
    }

    /// Files another tool (or an older copy) left readable by others are made `0600` again.
    private func tightenPermissions() throws(TLSError) {
        guard chmod(directory, 0o700) == 0 else { throw TLSError("\(directory): cannot set its permissions to 0700") }
        for path in [authorityPath, authorityKeyPath, certificatePath, keyPath] where chmod(path, 0o600) != 0 {
            throw TLSError("\(path): cannot set its permissions to 0600")
        }
    }
}
