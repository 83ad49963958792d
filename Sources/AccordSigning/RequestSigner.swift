
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

    /// The string the digest covers, with the secret written as `secret`.
    public func stringToSign(_ input: Input, secret: String) -> String {
        var text = ""
        text.reserveCapacity(input.appKey.utf8.count + input.timestamp.utf8.count + input.nonce.utf8.count
                             + input.sortedParams.utf8.count + secret.utf8.count)
        for part in settings.parts {
            switch part {
            case .appKey: text += input.appKey
            case .timestamp: text += input.timestamp
            case .nonce: text += input.nonce
            case .sortedParams: text += input.sortedParams
            case .appSecret: if settings.algorithm != .hmacSHA256 { text += secret }
            }
        }
        return text
    }

    /// The lowercase hex signature of `input` under `secret`.
    public func signature(_ input: Input, secret: String) -> String {
        let message = stringToSign(input, secret: secret)
        switch settings.algorithm {
        case .md5: return Digest.md5Hex(message)
        case .sha256: return Digest.sha256Hex(message)
        case .hmacSHA256: return Digest.hmacSHA256Hex(key: secret.utf8, message.utf8)
        }
    }
}
