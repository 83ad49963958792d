import AccordContract
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
        init(_ value: JSONValue, received: Int) {
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
    /// The request headers, lowercased, with credentials masked (see ``masked(_:)``);
    /// repeated ones are already joined, so the names are unique and the JSON form is an
    /// object.
    public var headers: [(name: String, value: String)] = []
    public var session: String
    public var user: Int?
    public var status: Int
    public var code: Int?
    /// The fixture or example that answered.
    public var answer: String?
    /// What injected the answer: `header`, `rule:3`, `scenario:token-expiry#1`.
    public var injected: String?
    public var verdict: Verdict
    /// How the request or, behind `accord proxy`, the upstream's answer broke the contract.
    public var problems: [Problem] = []
    /// What was answered: the body when it is at most ``Body/limit`` bytes, and its size.
    public var response: Response?

    /// An answer's body as the journal keeps it: its bytes up to ``Body/limit``, else only its size.
    public struct Response: Sendable, Equatable {
        /// The body, when kept.
        public var bytes: [UInt8]?
        /// The body's size.
        public var size: Int
        /// Whether the body is compact JSON this server wrote itself, on one line, which
        /// the live feed copies into an event as it is instead of reading it back.
        public var isCompactJSON = false

        /// - Parameters:
        ///   - body: what was sent; a stream's bytes are not known, so only `0` is kept.
        ///   - isCompactJSON: the writer vouches that the bytes are compact JSON (the
        ///     engine's own answers; not a fault's broken JSON, not an upstream's).
        init(_ body: MockResponse.Body, isCompactJSON: Bool = false) {
            switch body {
            case .bytes(let bytes):
                size = bytes.count
                self.bytes = bytes.count <= Body.limit ? bytes : nil
                self.isCompactJSON = isCompactJSON && self.bytes != nil && !bytes.contains(0x0A) && !bytes.contains(0x0D)
            case .events, .chunks, .stream:
                size = 0
                bytes = nil
            }
        }

        /// The body as the journal shows it: JSON as JSON, other text as a string; nil when not kept.
        private var bodyValue: JSONValue? {
            guard let bytes, !bytes.isEmpty else { return nil }
            return (try? JSONReader.read(bytes)) ?? .string(String(decoding: bytes, as: UTF8.self))
        }

        /// `response_bytes`, then `response_body`, written into `output`, an object's
        /// members so far: `{"seq":1,…` without its `}`. A body ``isCompactJSON`` vouches
        /// for is copied, not read back and written again.
        func append(to output: inout [UInt8]) {
            output += Array(",\"response_bytes\":".utf8)
            JSONWriter.writeInteger(size, into: &output)
            if isCompactJSON, let bytes, !bytes.isEmpty {
                output += Array(",\"response_body\":".utf8) + bytes
            } else if let value = bodyValue {
                output += Array(",\"response_body\":".utf8)
                JSONWriter.write(value, into: &output)
            }
        }

        /// `response_bytes` and `response_body`.
        var members: [JSONValue.Member] {
            [.init("response_bytes", .int(size))] + (bodyValue.map { [.init("response_body", $0)] } ?? [])
        }
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

        var json: JSONValue {
            .object([.init("side", .string(side.rawValue)), .init("pointer", .string(pointer)), .init("message", .string(message))])
        }
    }

    /// The entry as a JSON object.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("seq", .int(sequence)), .init("time", .string(RFC3339.format(unixSeconds: time))),
            .init("wall", .int(Int(wallTime))), .init("method", .string(method)), .init("path", .string(path)),
        ]
        if let endpoint { members.append(.init("endpoint", .string(endpoint))) }
        if !parameters.isEmpty {
            members.append(.init("params", .object(parameters.map { .init($0.name, .string($0.value)) })))
        }
        if !query.isEmpty {
            members.append(.init("query", .array(query.map { .array([.string($0.name), .string($0.value)]) })))
        }
        if !headers.isEmpty {
            members.append(.init("headers", .object(headers.map { .init($0.name, .string($0.value)) })))
        }
        switch body {
        case .json(let value)?: members.append(.init("body", value))
        case .omitted(let bytes)?: members.append(.init("body_omitted_bytes", .int(bytes)))
        case nil: break
        }
        members.append(.init("session", .string(session)))
        if let user { members.append(.init("user", .int(user))) }
        members.append(.init("status", .int(status)))
        if let code { members.append(.init("code", .int(code))) }
        if let answer { members.append(.init("answer", .string(answer))) }
        if let injected { members.append(.init("injected", .string(injected))) }
        members.append(.init("verdict", .string(verdict.rawValue)))
        if !problems.isEmpty { members.append(.init("problems", .array(problems.map(\.json)))) }
        if let response { members += response.members }
        return .object(members)
    }
}

extension JournalEntry {
    /// Headers whose values are credentials: kept as their first word (`Bearer`) only.
    static let maskedHeaders = ["authorization", "cookie", "proxy-authorization", MockEngine.adminTokenHeader]

    /// `headers` with credentials masked: `Authorization: Bearer <masked>`. Four names
    /// are compared by length first: cheaper than hashing each header's name.
    static func masked(_ headers: HTTPHeaders) -> [(name: String, value: String)] {
        let masked = maskedHeaders
        return headers.fields.map { name, value in
            guard masked.contains(where: { HTTPHeaders.same($0, name) }) else { return (name, value) }
            let scheme = value.split(separator: " ", maxSplits: 1).first.map { "\($0) " } ?? ""
            return (name, scheme + "<masked>")
        }
    }
}
