import Foundation

/// What an HTTPS server presents: its certificate (and any intermediates after it) and
/// its private key, both PEM.
public struct TLSIdentity: Sendable, Equatable {
    public var certificatePEM: [UInt8]
    public var privateKeyPEM: [UInt8]
    /// The certificate's common name, for the banner.
    public var commonName: String
    /// Seconds until the certificate expires.
    public var secondsLeft: Int

    /// Whole days until the certificate expires, a part of a day counted as one.
    public var daysLeft: Int { Self.days(in: secondsLeft) }

    /// Whole days in `seconds`, a part of a day counted as one; 0 when none are left.
    static func days(in seconds: Int) -> Int {
        seconds <= 0 ? 0 : (seconds + 86_399) / 86_400
    }

    /// The user's own certificate and key (`--tls-cert`, `--tls-key`: mkcert's, a
    /// company CA's), checked: both parse, the key is the certificate's, and it has not expired.
    public init(certificateFile: String, keyFile: String) throws(TLSError) {
        guard let certificateBytes = FileManager.default.contents(atPath: certificateFile).map(Array.init) else {
            throw TLSError("\(certificateFile): cannot read the certificate")
        }
        guard let keyBytes = FileManager.default.contents(atPath: keyFile).map(Array.init) else {
            throw TLSError("\(keyFile): cannot read the private key")
        }
        guard let certificate = Certificate(pem: certificateBytes) else {
            throw TLSError("\(certificateFile): not a PEM certificate (-----BEGIN CERTIFICATE-----)")
        }
        guard let key = PrivateKey(pem: keyBytes) else {
            throw TLSError("\(keyFile): not an unencrypted PEM private key (-----BEGIN PRIVATE KEY-----; an encrypted key must be decrypted first)")
        }
        guard certificate.matches(key) else { throw TLSError("\(keyFile) is not the private key of \(certificateFile)") }
        guard certificate.secondsLeft > 0 else { throw TLSError("\(certificateFile): the certificate for '\(certificate.commonName)' has expired") }
        self.init(certificate: certificate, certificatePEM: certificateBytes, privateKeyPEM: keyBytes)
    }

    init(certificate: Certificate, certificatePEM: [UInt8], privateKeyPEM: [UInt8]) {
        self.certificatePEM = certificatePEM
        self.privateKeyPEM = privateKeyPEM
        commonName = certificate.commonName
        secondsLeft = certificate.secondsLeft
    }
}
