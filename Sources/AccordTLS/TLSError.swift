/// Why a certificate could not be made, read or used.
public struct TLSError: Error, CustomStringConvertible, Sendable {
    public var description: String

    init(_ description: String) {
        self.description = description
    }

    /// `what` failed inside OpenSSL; its error queue's first reason is appended.
    static func openSSL(_ what: String) -> TLSError {
        TLSError("\(what) failed (OpenSSL: \(OpenSSLErrors.drain() ?? "no reason given"))")
    }
}
