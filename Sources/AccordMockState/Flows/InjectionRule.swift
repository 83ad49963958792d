import AccordContract
import AccordJSON
import AccordMocksFormat

/// A standing injection: which requests it hits, what it answers, and how often.
public struct InjectionRule: Sendable {
    public var id: Int
    /// An endpoint id, a prefix pattern such as `signal.*`, or `*`.
    public var endpoint: String
    public var user: Int?
    public var session: String?
    public var action: Injection
    /// How many more times it fires; nil for always.
    public var remaining: Int?
    /// The chance it fires on a matching request, drawn from the server's seeded generator.
    public var probability: Double?
    /// How many matching requests pass untouched before it starts firing.
    public var after: Int
    /// Matching requests seen so far.
    public var seen = 0

    /// The largest `times` and `after` a rule takes.
    public static let maxCount = 1_000_000

    public init(id: Int = 0, endpoint: String, user: Int? = nil, session: String? = nil, action: Injection,
                times: Int? = nil, probability: Double? = nil, after: Int = 0) {
        self.id = id
        self.endpoint = endpoint
        self.user = user
        self.session = session
        self.action = action
        self.remaining = times
        self.probability = probability
        self.after = after
    }

    /// Whether the rule concerns a request of this user and session (its endpoint already matched).
    public func concerns(user: Int?, session: String) -> Bool {
        (self.session == nil || self.session == session) && (self.user == nil || self.user == user)
    }

    /// `ENDPOINT=WHAT[@once|@N|@p0.3|@afterN]`, as `accord serve --inject` takes it.
    public init(parsing text: String, codes: [BusinessCode]) throws(Injection.SyntaxError) {
        let parts = text.split(separator: "=", maxSplits: 1).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else {
            throw Injection.SyntaxError(message: "expected ENDPOINT=WHAT such as 'signal.publish=3008' or 'auth.*=1005@once', found '\(text)'")
        }
        var pieces = parts[1].split(separator: "@").map(String.init)
        let what = pieces.isEmpty ? "" : pieces.removeFirst()
        self.init(endpoint: parts[0], action: try Injection(parsing: what, codes: codes))
        for modifier in pieces {
            if modifier == "once" { remaining = 1 }
            else if let count = Int(modifier), (1...Self.maxCount).contains(count) { remaining = count }
            else if modifier.hasPrefix("p"), let chance = Double(modifier.dropFirst()), (0...1).contains(chance) { probability = chance }
            else if modifier.hasPrefix("after"), let count = Int(modifier.dropFirst(5)), (0...Self.maxCount).contains(count) { after = count }
            else {
                throw Injection.SyntaxError(message: "unknown modifier '@\(modifier)'; use @once, @N (times, 1 to \(Self.maxCount)), "
                                            + "@p0.3 (probability from 0 to 1) or @afterN (0 to \(Self.maxCount))")
            }
        }
    }
}
