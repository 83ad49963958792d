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
    package static let faultNames = ["reset", "empty", "malformed", "slow", "slow:300ms", "latency:300ms", "latency:100ms-2s", "500", "502", "503", "504"]

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
            // One of a plain API's entries of a status: its discriminator marks the body.
            self = .business(code: code.code, message: nil, data: code.discriminatingData)
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
    package var faultText: String? {
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
