import AccordContract
import AccordFlowConformance
import AccordHTTP
import AccordJSON
import AccordReport
import AccordSync
import Foundation

/// One request as the journal keeps it.
public struct JournalEntry: Sendable {
    /// A request's JSON body, kept whole up to ``limit`` bytes of JSON, else only its size,
    /// so that 10,000 entries of large bodies cannot take the server's memory.
    public enum Body: Sendable, Equatable {
        case json(JSONValue)
        case omitted(bytes: Int)

        /// The largest body kept, in bytes of compact JSON.
        public static let limit = 4_096

        /// - Parameter received: the body's size as it arrived. Compact JSON is at most
        ///   3.5 times that (a form's `a&` is `"a":"",`), so a body of a quarter of the
        ///   limit is kept without writing it out to measure it: the common case costs nothing.
        package init(_ value: JSONValue, received: Int) {
            guard received > Self.limit / 4 else {
                self = .json(value)
                return
            }
            let size = JSONWriter.bytes(value).count
            self = size <= Self.limit ? .json(value) : .omitted(bytes: size)
        }
    }

    public var sequence = 0
    /// The mock clock when the request was answered.
    public var time: Int64
    /// The wall clock then, which signatures are checked against (`accord check-requests`).
    public var wallTime: Int64
    public var method: String
    public var path: String
    public var endpoint: String?
    /// The path parameters, percent-decoded, by name.
    public var parameters: [(name: String, value: String)] = []
    /// The query, percent-decoded, in request order.
    public var query: [(name: String, value: String)] = []
    public var body: Body?
    /// The request headers, lowercased, as they came; repeated ones are already joined,
    /// so the names are unique and the JSON form is an object. Credentials are masked
    /// wherever the entry is written out (see ``maskedValue(of:_:)``), so keeping them
    /// costs a request no copy.
    public var headers = HTTPHeaders()
    public var session: String
    public var user: Int?
    public var status: Int
    public var code: Int?
    /// The fixture or example that answered.
    public var answer: String?
    /// What injected the answer: `header`, `rule:3`, `scenario:token-expiry#1`.
    public var injected: String?
    public var verdict: Verdict
    /// Which `accord serve` answered, when several share one storage (`--replica`).
    public var replica: String?
    /// How the request or, behind `accord proxy`, the upstream's answer broke the contract.
    public var problems: [Problem] = []
    /// What was answered: the body when it is at most ``Body/limit`` bytes, and its size.
    public var response: Response?
    /// When the request reached the engine and when its answer went out (its delay
    /// included), in Unix microseconds of the real clock: what the flow rules order by.
    /// Kept, with the token's tag, only when the flows are checked (`--check-flows`).
    public var sentMicroseconds: Int64?
    public var answeredMicroseconds: Int64?
    /// The tag of the bearer token the request carried (``TokenTag``), never the token.
    public var tokenTag: String?
    /// The fault injected in place of the answer (`reset`, `503`, `malformed`), as it is written.
    public var fault: String?
    /// The flow rules this request broke, by what an earlier answer of its session asked
    /// (`--check-flows`): set as the entry is numbered, or, in a shared journal, as it is read.
    public var flowViolations: [FlowViolation] = []

    /// Every member, as the engine files a request (its number is set when the journal adds it).
    @inlinable
    package init(sequence: Int = 0, time: Int64, wallTime: Int64, method: String, path: String, endpoint: String? = nil,
                 parameters: [(name: String, value: String)] = [], query: [(name: String, value: String)] = [], body: Body? = nil,
                 headers: HTTPHeaders = HTTPHeaders(), session: String, user: Int? = nil, status: Int, code: Int? = nil, answer: String? = nil,
                 injected: String? = nil, verdict: Verdict, replica: String? = nil, problems: [Problem] = [], response: Response? = nil,
                 sentMicroseconds: Int64? = nil, answeredMicroseconds: Int64? = nil, tokenTag: String? = nil, fault: String? = nil,
                 flowViolations: [FlowViolation] = []) {
        self.sequence = sequence
        self.time = time
        self.wallTime = wallTime
        self.method = method
        self.path = path
        self.endpoint = endpoint
        self.parameters = parameters
        self.query = query
        self.body = body
        self.headers = headers
        self.session = session
        self.user = user
        self.status = status
        self.code = code
        self.answer = answer
        self.injected = injected
        self.verdict = verdict
        self.replica = replica
        self.problems = problems
        self.response = response
        self.sentMicroseconds = sentMicroseconds
        self.answeredMicroseconds = answeredMicroseconds
        self.tokenTag = tokenTag
        self.fault = fault
        self.flowViolations = flowViolations
    }

    /// One way a request or its answer broke the contract, as the journal shows it.
    public struct Problem: Sendable, Equatable {
        public var side: Observation.Side
        /// The JSON pointer (`/body/content`, `/data/nickname`); empty for the whole message.
        public var pointer: String
        public var message: String

        public init(side: Observation.Side, pointer: String, message: String) {
            self.side = side
            self.pointer = pointer
            self.message = message
        }

        /// `{"side":…,"pointer":…,"message":…}`.
        package func write(into output: inout ByteOutput) {
            output.append(#"{"side":"#)
            JSONWriter.writeString(side.rawValue, into: &output)
            output.append(#","pointer":"#)
            JSONWriter.writeString(pointer, into: &output)
            output.append(#","message":"#)
            JSONWriter.writeString(message, into: &output)
            output.append(UInt8(ascii: "}"))
        }
    }

    /// The entry as a JSON object.
    public var json: JSONValue {
        // What `bytes` writes is JSON by construction; read back, it is the entry's value.
        (try? JSONReader.read(bytes)) ?? .object([])
    }

    /// The entry as compact JSON, written straight out (the journal file and the live feed
    /// write one per request): the members in a fixed order, the optional ones only when set.
    public var bytes: [UInt8] {
        var output = ByteOutput(capacity: estimatedSize)
        write(into: &output)
        return output.bytes()
    }

    /// Room enough for most entries: a kilobyte and the answer kept.
    package var estimatedSize: Int { 1_024 + (response?.bytes?.count ?? 0) }

    /// ``bytes`` appended to `output`.
    package func write(into output: inout ByteOutput) {
        output.append(#"{"seq":"#)
        JSONWriter.writeInteger(sequence, into: &output)
        output.append(#","time":"#)
        output.append(UInt8(ascii: "\""))
        RFC3339.write(unixSeconds: time, into: &output)
        output.append(UInt8(ascii: "\""))
        output.append(#","wall":"#)
        JSONWriter.writeInteger(Int(wallTime), into: &output)
        output.append(#","method":"#)
        JSONWriter.writeString(method, into: &output)
        output.append(#","path":"#)
        JSONWriter.writeString(path, into: &output)
        if let endpoint { Self.member("endpoint", endpoint, into: &output) }
        if !parameters.isEmpty { Self.object("params", parameters, into: &output) }
        if !query.isEmpty {
            output.append(#","query":["#)
            for (index, pair) in query.enumerated() {
                output.append(index == 0 ? "[" : ",[")
                JSONWriter.writeString(pair.name, into: &output)
                output.append(UInt8(ascii: ","))
                JSONWriter.writeString(pair.value, into: &output)
                output.append(UInt8(ascii: "]"))
            }
            output.append(UInt8(ascii: "]"))
        }
        if !headers.fields.isEmpty { Self.object("headers", headers.fields, masking: true, into: &output) }
        switch body {
        case .json(let value)?:
            output.append(#","body":"#)
            JSONWriter.write(value, into: &output)
        case .omitted(let bytes)?:
            output.append(#","body_omitted_bytes":"#)
            JSONWriter.writeInteger(bytes, into: &output)
        case nil: break
        }
        Self.member("session", session, into: &output)
        if let user { Self.member("user", user, into: &output) }
        Self.member("status", status, into: &output)
        if let code { Self.member("code", code, into: &output) }
        if let answer { Self.member("answer", answer, into: &output) }
        if let injected { Self.member("injected", injected, into: &output) }
        if let fault { Self.member("fault", fault, into: &output) }
        Self.member("verdict", verdict.rawValue, into: &output)
        if let replica { Self.member("replica", replica, into: &output) }
        if let sentMicroseconds { Self.member("sent_us", Int(sentMicroseconds), into: &output) }
        if let answeredMicroseconds { Self.member("answered_us", Int(answeredMicroseconds), into: &output) }
        if let tokenTag { Self.member("token_tag", tokenTag, into: &output) }
        writeVerdicts(into: &output)
        response?.append(to: &output)
        output.append(UInt8(ascii: "}"))
    }

    /// `,"problems":[…]` and `,"flow_violations":[{"flow":…,"rule":…,"met":…,"message":…}]`, each when there are any.
    private func writeVerdicts(into output: inout ByteOutput) {
        if !problems.isEmpty {
            output.append(#","problems":["#)
            for (index, problem) in problems.enumerated() {
                if index > 0 { output.append(UInt8(ascii: ",")) }
                problem.write(into: &output)
            }
            output.append(UInt8(ascii: "]"))
        }
        guard !flowViolations.isEmpty else { return }
        output.append(#","flow_violations":["#)
        for (index, violation) in flowViolations.enumerated() {
            output.append(index == 0 ? #"{"flow":"# : #",{"flow":"#)
            JSONWriter.writeString(violation.flow.rawValue, into: &output)
            output.append(#","rule":"#)
            JSONWriter.writeString(violation.rule.rawValue, into: &output)
            output.append(#","met":"#)
            JSONWriter.writeInteger(violation.met, into: &output)
            output.append(#","message":"#)
            JSONWriter.writeString(violation.description, into: &output)
            output.append(UInt8(ascii: "}"))
        }
        output.append(UInt8(ascii: "]"))
    }

    /// `,"name":"text"`.
    private static func member(_ name: StaticString, _ text: String, into output: inout ByteOutput) {
        key(name, into: &output)
        JSONWriter.writeString(text, into: &output)
    }

    /// `,"name":42`.
    private static func member(_ name: StaticString, _ number: Int, into output: inout ByteOutput) {
        key(name, into: &output)
        JSONWriter.writeInteger(number, into: &output)
    }

    /// `,"name":{"a":"b",…}`; with `masking`, credentials' values masked.
    private static func object(_ name: StaticString, _ pairs: [(name: String, value: String)], masking: Bool = false,
                               into output: inout ByteOutput) {
        key(name, into: &output)
        output.append(UInt8(ascii: "{"))
        for (index, pair) in pairs.enumerated() {
            if index > 0 { output.append(UInt8(ascii: ",")) }
            JSONWriter.writeString(pair.name, into: &output)
            output.append(UInt8(ascii: ":"))
            // Most headers are no credential: their value is written as it is, without a call that hands back a copy.
            if masking, CredentialHeaders.contains(pair.name) {
                JSONWriter.writeString(masked(pair.value), into: &output)
            } else {
                JSONWriter.writeString(pair.value, into: &output)
            }
        }
        output.append(UInt8(ascii: "}"))
    }

    /// `,"name":` (the names are ASCII without quotes or escapes).
    private static func key(_ name: StaticString, into output: inout ByteOutput) {
        output.append(UInt8(ascii: ","))
        output.append(UInt8(ascii: "\""))
        output.append(name)
        output.append(UInt8(ascii: "\""))
        output.append(UInt8(ascii: ":"))
    }

}
