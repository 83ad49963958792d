internal import CCrypto
import Foundation

/// OpenSSL's thread-local error queue, read and emptied.
enum OpenSSLErrors {
    /// The oldest queued reason, or nil; the queue is emptied.
    static func drain() -> String? {
        let code = ERR_get_error()
        defer { ERR_clear_error() }
        guard code != 0 else { return nil }
        var text = [CChar](repeating: 0, count: 256)
        ERR_error_string_n(code, &text, text.count)
        return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

/// Bytes written into an OpenSSL memory BIO by `write`.
func memoryBIOBytes(_ write: (OpaquePointer) -> Int32) -> [UInt8]? {
    guard let bio = BIO_new(BIO_s_mem()) else { return nil }
    defer { BIO_free(bio) }
    guard write(bio) == 1 else { return nil }
    var contents: UnsafeMutablePointer<CChar>?
    let count = accord_bio_contents(bio, &contents)
    guard count > 0, let contents else { return nil }
    return contents.withMemoryRebound(to: UInt8.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
}

/// `bytes` as a read-only OpenSSL memory BIO, for `read`.
func readingBIO<T>(_ bytes: [UInt8], _ read: (OpaquePointer) -> T?) -> T? {
    bytes.withUnsafeBytes { buffer in
        guard let bio = BIO_new_mem_buf(buffer.baseAddress, Int32(buffer.count)) else { return nil }
        defer { BIO_free(bio) }
        return read(bio)
    }
}

/// An EC P-256 private key (OpenSSL `EVP_PKEY`), owned.
final class PrivateKey: @unchecked Sendable {
    let pointer: OpaquePointer

    private init(pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { EVP_PKEY_free(pointer) }

    /// A fresh key on NIST P-256.
    static func generate() throws(TLSError) -> PrivateKey {
        guard let key = accord_ec_p256_key() else { throw .openSSL("generating an EC P-256 key") }
        return PrivateKey(pointer: key)
    }

    /// The key a PEM file holds (PKCS#8, SEC1 or PKCS#1, unencrypted), or nil.
    convenience init?(pem: [UInt8]) {
        guard let key = readingBIO(pem, { PEM_read_bio_PrivateKey($0, nil, nil, nil) }) else {
            ERR_clear_error()
            return nil
        }
        self.init(pointer: key)
    }

    /// Unencrypted PKCS#8 PEM.
    func pem() throws(TLSError) -> [UInt8] {
        guard let bytes = memoryBIOBytes({ PEM_write_bio_PrivateKey($0, pointer, nil, nil, 0, nil, nil) }) else {
            throw .openSSL("writing a private key")
        }
        return bytes
    }
}

/// An X.509 certificate (OpenSSL `X509`), owned.
final class Certificate: @unchecked Sendable {
    let pointer: OpaquePointer

    init(owning pointer: OpaquePointer) {
        self.pointer = pointer
    }

    deinit { X509_free(pointer) }

    /// The first certificate of a PEM file, or nil.
    convenience init?(pem: [UInt8]) {
        guard let certificate = readingBIO(pem, { PEM_read_bio_X509($0, nil, nil, nil) }) else {
            ERR_clear_error()
            return nil
        }
        self.init(owning: certificate)
    }

    func pem() throws(TLSError) -> [UInt8] {
        guard let bytes = memoryBIOBytes({ PEM_write_bio_X509($0, pointer) }) else { throw .openSSL("writing a certificate") }
        return bytes
    }

    /// The DER encoding (what a configuration profile carries).
    func der() throws(TLSError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>?
        let count = i2d_X509(pointer, &output)
        guard count > 0, let output else { throw .openSSL("encoding a certificate as DER") }
        defer { CRYPTO_free(output, #file, #line) }
        return Array(UnsafeBufferPointer(start: output, count: Int(count)))
    }

    /// Seconds from now until the certificate expires (negative once it has).
    var secondsLeft: Int {
        guard let notAfter = X509_get0_notAfter(pointer) else { return Int.min }
        var days: Int32 = 0
        var seconds: Int32 = 0
        guard ASN1_TIME_diff(&days, &seconds, nil, notAfter) == 1 else { return Int.min }
        return Int(days) * 86_400 + Int(seconds)
    }

    /// Whether the certificate is valid for `name`: a DNS name, or an IPv4 or IPv6 address.
    func covers(_ name: String) -> Bool {
        if MachineNames.isAddress(name) { return X509_check_ip_asc(pointer, name, 0) == 1 }
        return X509_check_host(pointer, name, name.utf8.count, UInt32(X509_CHECK_FLAG_NO_PARTIAL_WILDCARDS), nil) == 1
    }

    /// Whether `issuer`'s key signed this certificate.
    func isSigned(by issuer: Certificate) -> Bool {
        guard let key = X509_get0_pubkey(issuer.pointer) else { return false }
        defer { ERR_clear_error() }
        return X509_verify(pointer, key) == 1
    }

    /// Whether `key` is the private half of this certificate's key.
    func matches(_ key: PrivateKey) -> Bool {
        defer { ERR_clear_error() }
        return X509_check_private_key(pointer, key.pointer) == 1
    }

    /// The subject's common name, for messages.
    var commonName: String {
        guard let name = X509_get_subject_name(pointer) else { return "?" }
        var text = [CChar](repeating: 0, count: 256)
        let count = X509_NAME_get_text_by_NID(name, NID_commonName, &text, Int32(text.count))
        guard count > 0 else { return "?" }
        return String(decoding: text.prefix(Int(count)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
