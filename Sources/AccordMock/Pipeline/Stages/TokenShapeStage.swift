import AccordContract
import AccordHTTP
import AccordMockState

/// Checks the shape of the access token an endpoint needs, without knowing it: the
/// proxy forwards tokens another server issued. `Authorization` must read
/// `<scheme> <token68>` (RFC 9110 §11.4). A missing token is not refused here: the
/// upstream answers it with its own flow code.
struct TokenShapeStage: Stage {
    /// The lowercased name of the header carrying the token.
    let header: String
    let auth: Service.Auth
    let envelopes: Envelopes

    init(auth: Service.Auth, envelopes: Envelopes) {
        self.auth = auth
        header = auth.header.lowercased()
        self.envelopes = envelopes
    }

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard exchange.route?.endpoint.requiresAuth == true, let value = exchange.request.headers[header],
              let problem = Self.problem(value, scheme: auth.scheme) else { return try next(&exchange) }
        return envelopes.refuse(&exchange, status: nil, kind: "invalid_token_shape", "\(auth.header) \(problem)",
                                extra: [.init("expected", .string("\(auth.scheme) <token>"))], verdict: .badToken)
    }

    /// What is wrong with `value` as `<scheme> <token68>`, or nil.
    static func problem(_ value: String, scheme: String) -> String? {
        let parts = value.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        guard parts.count == 2, parts[0].lowercased() == scheme.lowercased() else {
            return "does not start with '\(scheme) '"
        }
        let token = parts[1].utf8
        guard !token.isEmpty else { return "carries no token after '\(scheme) '" }
        let body = token.reversed().drop { $0 == UInt8(ascii: "=") }
        guard !body.isEmpty, body.allSatisfy(isToken68) else {
            return "carries a token with characters outside A-Z a-z 0-9 - . _ ~ + / (and trailing =)"
        }
        return nil
    }

    private static func isToken68(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"): true
        case UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "+"), UInt8(ascii: "/"): true
        default: false
        }
    }
}
