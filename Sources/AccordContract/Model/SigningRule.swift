/// How requests are signed: the digest, the pieces of the string to sign, the headers
/// that carry them, the known apps, the clock window and the nonce lifetime (see
/// `docs/contract-format.md` and `docs/signing.md`). A contract's `signing:` section is one.
public struct SigningRule: Sendable, Hashable {
    /// The digest over the string to sign.
    public enum Algorithm: String, Sendable, Hashable, CaseIterable {
        case md5, sha256
        case hmacSHA256 = "hmac-sha256"
    }

    /// The pieces concatenated into the string to sign, in order.
    public enum Part: String, Sendable, Hashable, CaseIterable {
        case appKey = "app_key", timestamp, nonce
        case sortedParams = "sorted_params"
        case appSecret = "app_secret"
    }

    public var isEnabled: Bool
    public var algorithm: Algorithm
    public var parts: [Part]
    /// Known app keys and their secrets.
    public var apps: [String: String]
    public var appKeyHeader: String
    public var timestampHeader: String
    public var nonceHeader: String
    public var signatureHeader: String
    /// Allowed clock difference, in seconds, either way.
    public var windowSeconds: Int
    /// How long a nonce is remembered, in seconds.
    public var nonceTTLSeconds: Int
    /// Endpoint ids (or `prefix.*` patterns) that need no signature.
    public var exempt: [String]

    public init(
        isEnabled: Bool = true, algorithm: Algorithm = .md5,
        parts: [Part] = [.appKey, .timestamp, .nonce, .sortedParams, .appSecret],
        apps: [String: String], appKeyHeader: String = "X-App-Key", timestampHeader: String = "X-Timestamp",
        nonceHeader: String = "X-Nonce", signatureHeader: String = "X-Sign", windowSeconds: Int = 300,
        nonceTTLSeconds: Int = 600, exempt: [String] = []
    ) {
        self.isEnabled = isEnabled
        self.algorithm = algorithm
        self.parts = parts
        self.apps = apps
        self.appKeyHeader = appKeyHeader
        self.timestampHeader = timestampHeader
        self.nonceHeader = nonceHeader
        self.signatureHeader = signatureHeader
        self.windowSeconds = windowSeconds
        self.nonceTTLSeconds = nonceTTLSeconds
        self.exempt = exempt
    }
}
