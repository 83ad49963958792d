import AccordHTTP
import AccordJSON
import AccordReport

extension JournalEntry {
    /// The entry ``bytes`` wrote, read back (a shared journal keeps entries as their JSON);
    /// nil when `bytes` are not such an entry. Credentials stay as written: masked.
    public init?(json bytes: [UInt8]) {
        guard let value = try? JSONReader.read(bytes), case .object(let members) = value,
              case .int(let sequence)? = value["seq"], case .string(let time)? = value["time"], let seconds = RFC3339.unixSeconds(time),
              case .int(let wall)? = value["wall"], case .string(let method)? = value["method"], case .string(let path)? = value["path"],
              case .string(let session)? = value["session"], case .int(let status)? = value["status"],
              case .string(let verdictName)? = value["verdict"], let verdict = Verdict(rawValue: verdictName) else { return nil }
        self.init(time: seconds, wallTime: Int64(wall), method: method, path: path, session: session, status: status, verdict: verdict)
        self.sequence = sequence
        for member in members {
            read(member)
        }
    }

    private mutating func read(_ member: JSONValue.Member) {
        switch (member.key, member.value) {
        case ("endpoint", .string(let text)): endpoint = text
        case ("params", .object(let pairs)): parameters = pairs.compactMap(Self.pair)
        case ("query", .array(let items)):
            query = items.compactMap { item in
                guard case .array(let pair) = item, pair.count == 2, case .string(let name) = pair[0], case .string(let text) = pair[1] else { return nil }
                return (name, text)
            }
        case ("headers", .object(let pairs)): headers = HTTPHeaders(pairs.compactMap(Self.pair))
        case ("body", let body): self.body = .json(body)
        case ("body_omitted_bytes", .int(let size)): body = .omitted(bytes: size)
        case ("user", .int(let number)): user = number
        case ("code", .int(let number)): code = number
        case ("answer", .string(let text)): answer = text
        case ("injected", .string(let text)): injected = text
        case ("fault", .string(let text)): fault = text
        case ("replica", .string(let text)): replica = text
        case ("sent_us", .int(let microseconds)): sentMicroseconds = Int64(microseconds)
        case ("answered_us", .int(let microseconds)): answeredMicroseconds = Int64(microseconds)
        case ("token_tag", .string(let text)): tokenTag = text
        case ("problems", .array(let items)): problems = items.compactMap(Self.problem)
        case ("response_bytes", .int(let size)):
            var kept = response ?? Response(.bytes([]))
            kept.size = size
            response = kept
        case ("response_body", let body):
            var kept = response ?? Response(.bytes([]))
            if case .string(let text) = body { kept.bytes = Array(text.utf8) } else { kept.bytes = JSONWriter.bytes(body) }
            kept.isCompactJSON = body.isContainer
            response = kept
        default: break
        }
    }

    private static func pair(_ member: JSONValue.Member) -> (String, String)? {
        if case .string(let text) = member.value { (member.key, text) } else { nil }
    }

    private static func problem(_ item: JSONValue) -> Problem? {
        guard case .string(let sideName)? = item["side"], let side = Observation.Side(rawValue: sideName),
              case .string(let pointer)? = item["pointer"], case .string(let message)? = item["message"] else { return nil }
        return Problem(side: side, pointer: pointer, message: message)
    }
}

extension JSONValue {
    /// Whether it is an object or an array: JSON the journal can copy as it is.
    fileprivate var isContainer: Bool {
        switch self {
        case .object, .array: true
        default: false
        }
    }
}
