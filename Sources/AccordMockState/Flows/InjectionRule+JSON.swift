import AccordContract
import AccordJSON
import AccordMocksFormat

/// Injection rules as the control API reads and writes them:
/// `{match: {endpoint, user?, session?}, respond: {code, msg?, data?} | "name", fault?: "reset", times?, probability?, after?}`.
///
/// Reading is strict: a member of the wrong type, out of range or unknown is refused
/// with its name, because a rule that silently applies to everyone (a `user` given as
/// a string) misleads the tester who wrote it.
extension InjectionRule {
    /// The longest session name a rule or a request may carry.
    public static let maxSessionLength = 128

    /// Reads a rule from a control-API body, checking every member against `contract`.
    public init(json body: JSONValue, contract: Contract) throws(Injection.SyntaxError) {
        let reader = MemberReader(body, at: "")
        try reader.allow(["match", "respond", "fault", "times", "probability", "after"])
        guard let match = body["match"] else {
            throw Injection.SyntaxError(message: "a rule needs {\"match\": {\"endpoint\": \"signal.*\"}}")
        }
        let matchReader = MemberReader(match, at: "match")
        try matchReader.allow(["endpoint", "user", "session"])
        guard let endpoint = try matchReader.string("endpoint") else {
            throw Injection.SyntaxError(message: "a rule needs {\"match\": {\"endpoint\": \"signal.*\"}}")
        }
        let ids = contract.endpoints.map(\.id)
        guard ids.contains(where: { EndpointPattern.matches(endpoint, $0) }) else {
            throw Injection.SyntaxError(message: "'\(endpoint)' matches no endpoint\(NameSuggestion.hint(for: endpoint, in: ids))")
        }
        let action: Injection
        switch (body["respond"], body["fault"]) {
        case (.string(let text)?, nil), (nil, .string(let text)?):
            action = try Injection(parsing: text, codes: contract.service.codes)
        case (.object?, nil):
            let respond = MemberReader(body["respond"] ?? .null, at: "respond")
            try respond.allow(["code", "msg", "data"])
            guard let code = try respond.int("code", in: Int.min...Int.max), code == 0 || contract.service.code(code) != nil else {
                throw Injection.SyntaxError(message: "'respond' needs a 'code': 0 (with 'data') or one from the contract's table")
            }
            action = .business(code: code, message: try respond.string("msg"), data: body.value(at: "/respond/data"))
        default:
            throw Injection.SyntaxError(message: "a rule needs exactly one of 'respond' ({\"code\": 1005} or a code name) and 'fault' (\"reset\", \"503\", …)")
        }
        self.init(endpoint: endpoint, action: action)
        user = try matchReader.int("user", in: Int.min...Int.max)
        session = try matchReader.string("session", maxLength: Self.maxSessionLength)
        remaining = try reader.int("times", in: 1...Self.maxCount)
        probability = try reader.double("probability", in: 0...1)
        after = try reader.int("after", in: 0...Self.maxCount) ?? 0
    }

    /// The rule as the control API lists it.
    public var json: JSONValue {
        var match: [JSONValue.Member] = [.init("endpoint", .string(endpoint))]
        if let user { match.append(.init("user", .int(user))) }
        if let session { match.append(.init("session", .string(session))) }
        var members: [JSONValue.Member] = [.init("id", .int(id)), .init("match", .object(match))]
        switch action {
        case .business(let code, let message, let data):
            var respond: [JSONValue.Member] = [.init("code", .int(code))]
            if let message { respond.append(.init("msg", .string(message))) }
            if let data { respond.append(.init("data", data)) }
            members.append(.init("respond", .object(respond)))
        case .latency, .fault:
            members.append(.init("fault", .string(action.faultText ?? "")))
        }
        if let remaining { members.append(.init("times_left", .int(remaining))) }
        if let probability { members.append(.init("probability", .double(probability))) }
        members.append(.init("after", .int(after)))
        members.append(.init("seen", .int(seen)))
        return .object(members)
    }
}

/// Typed, range-checked reads of an object's members, each error naming the member.
package struct MemberReader {
    package let value: JSONValue
    /// Where the object sits in the body, for messages: "" or "match".
    package let place: String

    package init(_ value: JSONValue, at place: String) {
        self.value = value
        self.place = place
    }

    private func name(_ key: String) -> String { place.isEmpty ? "'\(key)'" : "'\(place).\(key)'" }

    /// Refuses a value that is not an object, or has a member outside `known`.
    package func allow(_ known: [String]) throws(Injection.SyntaxError) {
        guard case .object(let members) = value else {
            throw Injection.SyntaxError(message: "\(place.isEmpty ? "the body" : "'\(place)'") must be a JSON object")
        }
        if let unknown = members.first(where: { !known.contains($0.key) }) {
            throw Injection.SyntaxError(message: "unknown member \(name(unknown.key))\(NameSuggestion.hint(for: unknown.key, in: known)); "
                                        + "expected \(known.joined(separator: ", "))")
        }
    }

    package func string(_ key: String, maxLength: Int = 1_024) throws(Injection.SyntaxError) -> String? {
        switch value[key] {
        case nil, .null?: return nil
        case .string(let text)? where text.utf8.count <= maxLength: return text
        case .string?: throw Injection.SyntaxError(message: "\(name(key)) is longer than \(maxLength) bytes")
        case let other?: throw Injection.SyntaxError(message: "\(name(key)) must be a string, found \(other.summary)")
        }
    }

    package func int(_ key: String, in range: ClosedRange<Int>) throws(Injection.SyntaxError) -> Int? {
        switch value[key] {
        case nil, .null?: return nil
        case .int(let number)? where range.contains(number): return number
        case .int(let number)?: throw Injection.SyntaxError(message: "\(name(key)) must be from \(range.lowerBound) to \(range.upperBound), found \(number)")
        case let other?: throw Injection.SyntaxError(message: "\(name(key)) must be an integer, found \(other.summary)")
        }
    }

    package func double(_ key: String, in range: ClosedRange<Double>) throws(Injection.SyntaxError) -> Double? {
        let number: Double
        switch value[key] {
        case nil, .null?: return nil
        case .int(let whole)?: number = Double(whole)
        case .double(let fraction)?: number = fraction
        case let other?: throw Injection.SyntaxError(message: "\(name(key)) must be a number, found \(other.summary)")
        }
        guard range.contains(number) else {
            throw Injection.SyntaxError(message: "\(name(key)) must be from \(range.lowerBound) to \(range.upperBound), found \(number)")
        }
        return number
    }
}
