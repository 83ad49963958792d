import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordSigning

/// Signs requests the way docs/signing.md says, with the repository's development app key,
/// independently of the generated client.
public enum TestSigner {
    public static let appKey = "dev_app_key"
    public static let appSecret = "dev_app_secret"
    /// The headers every request of the repository's contract carries besides signing.
    public static let serviceHeaders = [("X-Device-Id", "D-1"), ("X-OS", "ios"), ("X-App-Version", "1.2.0")]

    /// `X-App-Key`, `X-Timestamp`, `X-Nonce` and `X-Sign` for a request to `target`
    /// (path and query, as sent) with `body`.
    public static func headers(target: String, body: String?, timestamp: Int64, nonce: String) -> [(String, String)] {
        let query = MockRequest(method: "GET", target: target).query
        let parsed = body.flatMap { try? JSONReader.read(Array($0.utf8)) }
        let input = RequestSigner.Input(appKey: appKey, timestamp: String(timestamp), nonce: nonce,
                                        sortedParams: SortedParams.make(query: query, body: parsed))
        let signature = RequestSigner(settings: Service.Signing(apps: [appKey: appSecret])).signature(input, secret: appSecret)
        return [("X-App-Key", appKey), ("X-Timestamp", String(timestamp)), ("X-Nonce", nonce), ("X-Sign", signature)]
    }
}
