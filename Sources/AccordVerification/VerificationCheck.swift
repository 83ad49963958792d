import AccordJSON

/// One check of `accord verify` and how it went.
public struct VerificationCheck: Sendable {
    public enum Outcome: Sendable, Equatable {
        case passed
        /// What broke: lines such as `/data/nickname: missing required member 'nickname'`.
        case failed([String])
        case skipped(String)
    }

    /// The endpoint checked.
    public var endpoint: String
    /// `example 'default'`, `tampered signature`, `replayed nonce`…
    public var name: String
    public var outcome: Outcome
    /// The HTTP status and business code answered, when an answer came.
    public var status: Int?
    public var code: Int?

    /// `FAIL user.me example 'default': /data/nickname: …`, one line per problem.
    public var lines: [String] {
        switch outcome {
        case .passed: ["PASS \(endpoint) \(name)"]
        case .failed(let problems): problems.map { "FAIL \(endpoint) \(name): \($0)" }
        case .skipped(let reason): ["SKIP \(endpoint) \(name): \(reason)"]
        }
    }
}
