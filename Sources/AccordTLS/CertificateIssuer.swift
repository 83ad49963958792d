internal import CCrypto
import Foundation

/// Makes the local CA and the server certificates it signs, as Apple platforms accept
/// them: EC P-256 keys, SHA-256 signatures, the names in `subjectAltName`, the
/// `serverAuth` purpose, and a leaf valid for at most ``LocalAuthority/maximumLeafDays`` days.
enum CertificateIssuer {    /// The CA's lifetime: ten years.
    static let authorityDays = 3_650
    /// How far back validity starts, for clocks a little behind.
    private static let backdateSeconds = 3_600

    /// A self-signed CA that may sign server certificates but no further CAs (`pathlen:0`).
    static func authority(commonName: String, key: PrivateKey) throws(TLSError) -> Certificate {
        let certificate = try blank(commonName: commonName, key: key, days: authorityDays)
        guard let subject = X509_get_subject_name(certificate.pointer), X509_set_issuer_name(certificate.pointer, subject) == 1 else {
            throw .openSSL("naming the CA its own issuer")
        }
        try extend(certificate, issuer: certificate, [
            (NID_basic_constraints, "critical,CA:TRUE,pathlen:0"),
            (NID_key_usage, "critical,keyCertSign,cRLSign"),
            (NID_subject_key_identifier, "hash"),
        ])
        try sign(certificate, with: key)
        return certificate
    }

    /// A server certificate for `names` (DNS names and IP addresses), signed by the CA.
    static func leaf(names: [String], key: PrivateKey, days: Int, authority: Certificate, authorityKey: PrivateKey) throws(TLSError) -> Certificate {
        guard let first = names.first else { throw TLSError("a server certificate needs at least one name") }
        let certificate = try blank(commonName: first, key: key, days: min(max(days, 1), LocalAuthority.maximumLeafDays))
        guard let issuer = X509_get_subject_name(authority.pointer), X509_set_issuer_name(certificate.pointer, issuer) == 1 else {
            throw .openSSL("naming the server certificate's issuer")
        }
        let alternatives = names.map { (MachineNames.isAddress($0) ? "IP:" : "DNS:") + $0 }.joined(separator: ",")
        try extend(certificate, issuer: authority, [
            (NID_basic_constraints, "critical,CA:FALSE"),
            (NID_key_usage, "critical,digitalSignature"),
            (NID_ext_key_usage, "serverAuth"),
            (NID_subject_key_identifier, "hash"),
            (NID_authority_key_identifier, "keyid:always"),
            (NID_subject_alt_name, alternatives),
        ])
        try sign(certificate, with: authorityKey)
        return certificate
    }

    /// A version 3 certificate with a random serial, the validity and the subject's key.
    private static func blank(commonName: String, key: PrivateKey, days: Int) throws(TLSError) -> Certificate {
        guard let pointer = X509_new() else { throw .openSSL("making a certificate") }
        let certificate = Certificate(owning: pointer)
        var serial = [UInt8](repeating: 0, count: 16)
        guard RAND_bytes(&serial, Int32(serial.count)) == 1 else { throw .openSSL("drawing a serial number") }
        serial[0] &= 0x7F  // positive, as RFC 5280 asks
        guard X509_set_version(pointer, 2) == 1,
              let number = BN_bin2bn(serial, Int32(serial.count), nil) else { throw .openSSL("setting the version and serial") }
        defer { BN_free(number) }
        guard BN_to_ASN1_INTEGER(number, X509_get_serialNumber(pointer)) != nil,
              X509_gmtime_adj(X509_getm_notBefore(pointer), -backdateSeconds) != nil,
              X509_gmtime_adj(X509_getm_notAfter(pointer), days * 86_400) != nil,
              X509_set_pubkey(pointer, key.pointer) == 1,
              let subject = X509_get_subject_name(pointer),
              X509_NAME_add_entry_by_txt(subject, "O", accord_mbstring_utf8(), "Accord", -1, -1, 0) == 1,
              X509_NAME_add_entry_by_txt(subject, "CN", accord_mbstring_utf8(), commonName, -1, -1, 0) == 1 else {
            throw .openSSL("filling in the certificate")
        }
        return certificate
    }

    /// Adds X.509 v3 extensions written in OpenSSL's configuration syntax.
    private static func extend(_ certificate: Certificate, issuer: Certificate, _ extensions: [(nid: Int32, value: String)]) throws(TLSError) {
        var context = X509V3_CTX()
        X509V3_set_ctx(&context, issuer.pointer, certificate.pointer, nil, nil, 0)
        for (nid, value) in extensions {
            guard let made = X509V3_EXT_conf_nid(nil, &context, nid, value) else {
                throw .openSSL("the extension \(String(cString: OBJ_nid2sn(nid))) = \(value)")
            }
            defer { X509_EXTENSION_free(made) }
            guard X509_add_ext(certificate.pointer, made, -1) == 1 else { throw .openSSL("adding an extension") }
        }
    }

    private static func sign(_ certificate: Certificate, with key: PrivateKey) throws(TLSError) {
        guard X509_sign(certificate.pointer, key.pointer, EVP_sha256()) > 0 else { throw .openSSL("signing the certificate") }
    }
}
