import AccordContract
import AccordCrypto
import AccordJSON

/// Computes `X-Sign` under a contract's signing settings.
///
/// With `md5` or `sha256` the digest covers the `parts` concatenated in order; with
/// `hmac-sha256` the app secret is the key and the `app_secret` part is left out of
/// the message.
public struct RequestSigner: Sendable {
    public let settings: SigningRule

    public init(settings: SigningRule) {
        self.settings = settings
    }

    /// What one request contributes to its signature.
    public struct Input: Sendable {
        public var appKey: String
        public var timestamp: String
        public var nonce: String
        public var sortedParams: String

        public init(appKey: String, timestamp: String, nonce: String, sortedParams: String) {
            self.appKey = appKey
            self.timestamp = timestamp
            self.nonce = nonce
            self.sortedParams = sortedParams
        }
    }

    /// The string to sign, with `secret` where the rule puts the app secret.
    public func stringToSign(_ input: Input, secret: String) -> String {
        message(input, secret: secret).string()
    }

    /// The lowercase hex signature of `input`.
    public func signature(_ input: Input, secret: String) -> String {
        Hex.lowercase(digest(input, secret: secret))
    }

    /// The raw digest the signature spells.
    public func digest(_ input: Input, secret: String) -> [UInt8] {
        message(input, secret: secret).withUnsafeBytes { settings.algorithm.digest(of: $0, key: secret) }
    }

    /// The bytes of the string to sign: the rule's parts in order (HMAC keeps the
    /// secret out of the message; it is the key), each copied in one run.
    private func message(_ input: Input, secret: String) -> ByteOutput {
        var bytes = ByteOutput(capacity: input.appKey.utf8.count + input.timestamp.utf8.count + input.nonce.utf8.count
                                   + input.sortedParams.utf8.count + secret.utf8.count)
        for part in settings.parts {
            switch part {
            case .appKey: bytes.append(contentsOf: input.appKey)
            case .timestamp: bytes.append(contentsOf: input.timestamp)
            case .nonce: bytes.append(contentsOf: input.nonce)
            case .sortedParams: bytes.append(contentsOf: input.sortedParams)
            case .appSecret: if settings.algorithm != .hmacSHA256 { bytes.append(contentsOf: secret) }
            }
        }
        return bytes
    }
}

extension SigningRule.Algorithm {
    /// The raw digest of `message` by this algorithm (under `key` for HMAC).
    func digest(of message: UnsafeBufferPointer<UInt8>, key: String) -> [UInt8] {
        switch self {
        case .md5: Digest.md5(message)
        case .sha256: Digest.sha256(message)
        case .hmacSHA256: Digest.hmacSHA256(key: Array(key.utf8), message)
        }
    }
}
