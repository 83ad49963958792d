import AccordContract
import AccordJSON

/// What a tester injects into a request: added latency, a fault that spoils the
/// answer, or a business code answered instead of it.
public enum Injection: Sendable, Hashable {
    /// Answer normally, after a fixed or random delay in milliseconds.
    case latency(ClosedRange<Int>)
    case fault(Fault)
    /// A business code in the envelope (`msg` and `data` default to the code table's and nothing).
    case business(code: Int, message: String?, data: JSONValue?)

    /// A transport-level failure, as WireMock offers them.
    public enum Fault: Sendable, Hashable {
        /// 500, 502, 503 (with `Retry-After`) or 504, with a short text body.
        case httpStatus(Int)
        /// Close the connection with a TCP reset, answering nothing.
        case connectionReset
        /// Close the connection cleanly, answering nothing.
        case emptyReply
        /// A 200 whose JSON body is cut short.
        case malformedJSON
        /// The normal body, sent in small chunks with a delay between them.
        case slowBody(chunkDelayMilliseconds: Int)
    }

    /// Why an injection could not be read.
    public struct SyntaxError: Error, Sendable, Equatable {
        public var message: String

        public init(message: String) {
            self.message = message
        }
    }

    /// The names a tester can write, besides code numbers and code names.
    static let faultNames = ["reset", "empty", "malformed", "slow", "slow:300ms", "latency:300ms", "latency:100ms-2s", "500", "502", "503", "504"]

    /// Reads `1005`, a code's name (`token-invalid`, `quota`), or a fault
    /// (`reset`, `empty`, `malformed`, `slow[:300ms]`, `latency:300ms`, `latency:100ms-2s`, `500`…`504`).
    public init(parsing text: String, codes: [BusinessCode]) throws(SyntaxError) {
        let word = text.trimmingCharacters(in: .whitespaces)
        if let number = Int(word) {
            if (500...504).contains(number) {
                self = .fault(.httpStatus(number))
            } else if codes.contains(where: { $0.code == number }) {
                self = .business(code: number, message: nil, data: nil)
            } else {
                throw SyntaxError(message: "\(number) is neither a business code of the contract nor an HTTP status from 500 to 504")
            }
            return
        }
        if let code = codes.first(where: { $0.name == word }) {
            self = .business(code: code.code, message: nil, data: nil)
            return
        }
        switch word {
        case "reset": self = .fault(.connectionReset); return
        case "empty": self = .fault(.emptyReply); return
        case "malformed": self = .fault(.malformedJSON); return
        case "slow": self = .fault(.slowBody(chunkDelayMilliseconds: 200)); return
        default: break
        }
        if word.hasPrefix("slow:"), let delay = DurationText.milliseconds(String(word.dropFirst(5))) {
            self = .fault(.slowBody(chunkDelayMilliseconds: delay))
            return
        }
        if word.hasPrefix("latency:") {
            // Empty pieces kept: `latency:-5s` is a malformed range, not 5 s.
            let range = word.dropFirst(8).split(separator: "-", omittingEmptySubsequences: false).map { DurationText.milliseconds(String($0)) }
            if range.count == 1, let fixed = range[0] { self = .latency(fixed...fixed); return }
            if range.count == 2, let low = range[0], let high = range[1], low <= high { self = .latency(low...high); return }
        }
        let names = codes.map(\.name) + Self.faultNames
        let suggestion = NameSuggestion.nearest(to: word, in: names).map { " (did you mean '\($0)'?)" } ?? ""
        throw SyntaxError(message: "unknown injection '\(word)'\(suggestion); expected a business code "
                          + "(\(codes.map { String($0.code) }.joined(separator: ", "))), its name, or a fault: "
                          + Self.faultNames.joined(separator: ", "))
    }
}

extension Injection.Fault {
    /// Whether the client never gets the answer's body whole (a 5xx, a reset, an empty
    /// reply, cut JSON). Such a fault stands for a failure before the backend, so the
    /// request changes no state: a login or refresh issues no tokens.
    public var losesTheAnswer: Bool {
        switch self {
        case .httpStatus, .connectionReset, .emptyReply, .malformedJSON: true
        case .slowBody: false
        }
    }
}

extension Injection {
    /// A latency or fault as it is written (`latency:100ms-2000ms`, `reset`); nil for a business code.
    var faultText: String? {
        switch self {
        case .latency(let range): range.lowerBound == range.upperBound ? "latency:\(range.lowerBound)ms" : "latency:\(range.lowerBound)ms-\(range.upperBound)ms"
        case .fault(let fault): fault.description
        case .business: nil
        }
    }
}

extension Injection.Fault: CustomStringConvertible {
    /// The fault as it is written: `reset`, `slow:200ms`, `503`.
    public var description: String {
        switch self {
        case .httpStatus(let status): String(status)
        case .connectionReset: "reset"
        case .emptyReply: "empty"
        case .malformedJSON: "malformed"
        case .slowBody(let delay): "slow:\(delay)ms"
        }
    }
}

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
    func concerns(user: Int?, session: String) -> Bool {
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
