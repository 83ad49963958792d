import AccordCrypto
import Foundation

/// An iOS configuration profile (`.mobileconfig`) that installs the local CA as a
/// trusted root: Settings → General → VPN & Device Management installs it, and
/// Certificate Trust Settings then enables it for TLS.
public enum TrustProfile {
    /// The media type Safari on iOS opens as a profile.
    public static let mediaType = "application/x-apple-aspen-config"

    /// The profile as an XML property list carrying the CA's DER bytes. Its identifiers
    /// derive from the certificate, so downloading it again gives the same profile.
    public static func mobileconfig(authorityDER: [UInt8], commonName: String) throws(TLSError) -> [UInt8] {
        let digest = String(Digest.sha256Hex(authorityDER).prefix(16))
        let profile: [String: Any] = [
            "PayloadType": "Configuration",
            "PayloadVersion": 1,
            "PayloadIdentifier": "dev.accord.local-ca.\(digest)",
            "PayloadUUID": uuid(digest, salt: 1),
            "PayloadDisplayName": commonName,
            "PayloadDescription": "Trusts the certificate authority of accord serve --tls on this network, for development.",
            "PayloadOrganization": "Accord",
            "PayloadContent": [[
                "PayloadType": "com.apple.security.root",
                "PayloadVersion": 1,
                "PayloadIdentifier": "dev.accord.local-ca.\(digest).root",
                "PayloadUUID": uuid(digest, salt: 2),
                "PayloadDisplayName": commonName,
                "PayloadCertificateFileName": "accord-ca.cer",
                "PayloadContent": Data(authorityDER),
            ] as [String: Any]],
        ]
        do {
            return Array(try PropertyListSerialization.data(fromPropertyList: profile, format: .xml, options: 0))
        } catch {
            throw TLSError("writing the configuration profile: \(error.localizedDescription)")
        }
    }

    /// A UUID-shaped identifier from the certificate's hash, stable across downloads.
    private static func uuid(_ digest: String, salt: Int) -> String {
        let characters = Array(Digest.sha256Hex("\(digest)/\(salt)").uppercased())
        func part(_ range: Range<Int>) -> String { String(characters[range]) }
        return [part(0..<8), part(8..<12), part(12..<16), part(16..<20), part(20..<32)].joined(separator: "-")
    }
}
