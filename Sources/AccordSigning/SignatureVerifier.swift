import AccordContract
import AccordCrypto
import AccordJSON

/// Checks a request's signing headers: presence, app key, timestamp window and the
/// signature itself (constant-time). The nonce's freshness is state, kept by the
/// caller's nonce store; this type words its refusals.
///
/// A refusal explains itself: a wrong signature comes back with the `sorted_params`
/// and the `string_to_sign` the server computed, the secret written `<app_secret>`,
/// so a client author can diff them against their own.
public struct SignatureVerifier: Sendable {
    /// Why a request was refused. The mock answers each with the code the contract
    /// names `signature-invalid`, `timestamp-invalid` or `nonce-reused` (see `FlowCodes`).
    public enum Failure: Sendable, Hashable {
        /// Headers missing or malformed, unknown app key, or the signature differs.
        case signatureInvalid
        /// `X-Timestamp` outside the window.
        case timestampOutsideWindow
        /// `X-Nonce` seen before within its TTL.
        case nonceReused
        /// The nonce store is full, so the nonce cannot be checked; the server answers
        /// HTTP 503 with `Retry-After`.
        case nonceStoreFull
    }

    /// A correctly signed request: who signed it, and the nonce its store must not have seen.
    public struct SignedRequest: Sendable, Hashable {
        public var appKey: String
        public var nonce: String

        public init(appKey: String, nonce: String) {
            self.appKey = appKey
            self.nonce = nonce
        }
    }

    /// A refusal: its kind, a sentence, and machine-readable details for `data`.
    public struct Rejection: Sendable, Hashable, Error {
        public var failure: Failure
        public var message: String
        public var details: JSONValue
    }

    public let signer: RequestSigner
    /// The four signing header names, lowercased once.
    private let headerKeys: (appKey: String, timestamp: String, nonce: String, signature: String)

    public init(settings: SigningRule) {
        self.signer = RequestSigner(settings: settings)
        self.headerKeys = (settings.appKeyHeader.lowercased(), settings.timestampHeader.lowercased(),
                           settings.nonceHeader.lowercased(), settings.signatureHeader.lowercased())
    }

    /// The redacted secret, as shown in `string_to_sign`.
    public static let secretPlaceholder = "<app_secret>"

    /// Verifies one request.
    ///
    /// - Parameters:
    ///   - header: looks a header up by its lowercased name.
    ///   - query: the query parameters, percent-decoded, in request order.
    ///   - body: the parsed JSON body, if any.
    ///   - now: the server's clock, in Unix seconds.
    /// - Returns: the app key and nonce of a correctly signed request within the window.
    ///   The nonce is not checked here: whether it was seen before is the nonce store's
    ///   to say (``replayed(_:)``, ``nonceStoreFull(capacity:)``).
    public func verify(
        header: (String) -> String?, query: [(name: String, value: String)], body: JSONValue?, now: Int64
    ) -> Result<SignedRequest, Rejection> {
        let settings = signer.settings
        guard let appKey = header(headerKeys.appKey), let timestamp = header(headerKeys.timestamp),
              let nonce = header(headerKeys.nonce), let signature = header(headerKeys.signature),
              !appKey.isEmpty, !timestamp.isEmpty, !nonce.isEmpty, !signature.isEmpty else { return .failure(missingHeaders(header)) }
        guard let secret = settings.apps[appKey] else {
            return .failure(Rejection(failure: .signatureInvalid, message: "unknown app key '\(appKey)'",
                                      details: .object([.init("header", .string(settings.appKeyHeader))])))
        }
        guard let seconds = Self.decimalSeconds(timestamp) else {
            return .failure(Rejection(failure: .signatureInvalid,
                                      message: "\(settings.timestampHeader) must be Unix seconds in decimal, found '\(timestamp)'",
                                      details: .object([.init("header", .string(settings.timestampHeader))])))
        }
        guard Self.isWellFormedNonce(nonce) else {
            return .failure(Rejection(failure: .signatureInvalid,
                                      message: "\(settings.nonceHeader) must be 1 to 64 characters of A-Z a-z 0-9 _ -",
                                      details: .object([.init("header", .string(settings.nonceHeader))])))
        }
        let skew = seconds - now
        guard abs(skew) <= Int64(settings.windowSeconds) else {
            return .failure(Rejection(
                failure: .timestampOutsideWindow,
                message: "\(settings.timestampHeader) \(timestamp) is \(abs(skew)) s \(skew < 0 ? "behind" : "ahead of") the server clock; the window is ±\(settings.windowSeconds) s",
                details: .object([.init("server_time", .int(Int(now))), .init("timestamp", .int(Int(seconds))),
                                  .init("window_seconds", .int(settings.windowSeconds))])
            ))
        }
        let input = RequestSigner.Input(appKey: appKey, timestamp: timestamp, nonce: nonce,
                                        sortedParams: SortedParams.make(query: query, body: body))
        let expected = signer.digest(input, secret: secret)
        guard let given = Digest.bytes(fromHex: signature), Digest.constantTimeEquals(expected, given) else {
            return .failure(Rejection(
                failure: .signatureInvalid,
                message: "\(settings.signatureHeader) does not match the request; compare sorted_params and string_to_sign with the client's",
                details: .object([
                    .init("algorithm", .string(settings.algorithm.rawValue)),
                    .init("sorted_params", .string(input.sortedParams)),
                    .init("string_to_sign", .string(signer.stringToSign(input, secret: Self.secretPlaceholder))),
                ])
            ))
        }
        return .success(SignedRequest(appKey: appKey, nonce: nonce))
    }

    /// The refusal of a request without every signing header, naming the missing ones.
    private func missingHeaders(_ header: (String) -> String?) -> Rejection {
        let settings = signer.settings
        let names = [settings.appKeyHeader, settings.timestampHeader, settings.nonceHeader, settings.signatureHeader]
        let keys = [headerKeys.appKey, headerKeys.timestamp, headerKeys.nonce, headerKeys.signature]
        let missing = zip(names, keys).filter { header($0.1)?.isEmpty ?? true }.map(\.0)
        return Rejection(failure: .signatureInvalid,
                         message: "missing signing header\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))",
                         details: .object([.init("missing_headers", .array(missing.map(JSONValue.string)))]))
    }

    /// The refusal of a correctly signed request whose nonce was already used within the window.
    public func replayed(_ signed: SignedRequest) -> Rejection {
        let settings = signer.settings
        return Rejection(failure: .nonceReused,
                         message: "\(settings.nonceHeader) '\(signed.nonce)' was already used within \(settings.nonceTTLSeconds) s",
                         details: .object([.init("nonce", .string(signed.nonce))]))
    }

    /// The refusal of a correctly signed request whose nonce the store cannot keep: `capacity` nonces are live.
    public func nonceStoreFull(capacity: Int) -> Rejection {
        Rejection(failure: .nonceStoreFull,
                  message: "the server holds \(capacity) unexpired nonces, its limit; retry once older ones expire",
                  details: .object([.init("retry_after_seconds", .int(signer.settings.nonceTTLSeconds))]))
    }

    /// Unix seconds written in decimal digits only (no sign, no spaces), if they fit an `Int64`.
    static func decimalSeconds(_ text: String) -> Int64? {
        // A native string's bytes in place, as in `isWellFormedNonce(_:)`.
        text.utf8.withContiguousStorageIfAvailable(decimal) ?? decimal(text.utf8)
    }

    private static func decimal(_ digits: some Sequence<UInt8>) -> Int64? {
        var value: Int64 = 0
        for digit in digits {
            guard digit >= UInt8(ascii: "0") && digit <= UInt8(ascii: "9") else { return nil }
            let (shifted, overflowShift) = value.multipliedReportingOverflow(by: 10)
            let (sum, overflowAdd) = shifted.addingReportingOverflow(Int64(digit - UInt8(ascii: "0")))
            guard !overflowShift && !overflowAdd else { return nil }
            value = sum
        }
        return value
    }

    /// `[A-Za-z0-9_-]{1,64}` (docs/signing.md); the test vectors' nonces have 6
    /// characters (`n-0001`), so no longer minimum is enforced.
    public static func isWellFormedNonce(_ nonce: String) -> Bool {
        guard (1...64).contains(nonce.utf8.count) else { return false }
        let isAllowed = { (byte: UInt8) in
            let folded = byte | 0x20
            return (folded >= 0x61 && folded <= 0x7A) || (byte >= 0x30 && byte <= 0x39) || byte == 0x5F || byte == 0x2D
        }
        // A native string's bytes in place: the generic UTF-8 iterator costs several times more a byte.
        return nonce.utf8.withContiguousStorageIfAvailable { $0.allSatisfy(isAllowed) } ?? nonce.utf8.allSatisfy(isAllowed)
    }
}
