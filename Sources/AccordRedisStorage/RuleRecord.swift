import AccordJSON
import AccordMock
import AccordMockState
import AccordMocksFormat

/// What of an injection rule does not change while it stands, as Redis keeps it:
/// `{endpoint, user?, session?, after, probability?, code, msg?, data?}` or `… fault}`
/// (its counters, `seen` and the uses left, are fields beside it).
enum RuleRecord {
    static func bytes(of rule: InjectionRule) -> [UInt8] {
        var members: [JSONValue.Member] = [.init("endpoint", .string(rule.endpoint)), .init("after", .int(rule.after))]
        if let user = rule.user { members.append(.init("user", .int(user))) }
        if let session = rule.session { members.append(.init("session", .string(session))) }
        if let probability = rule.probability { members.append(.init("probability", .double(probability))) }
        switch rule.action {
        case .business(let code, let message, let data):
            members.append(.init("code", .int(code)))
            if let message { members.append(.init("msg", .string(message))) }
            if let data { members.append(.init("data", data)) }
        case .latency, .fault:
            members.append(.init("fault", .string(rule.action.faultText ?? "")))
        }
        return JSONWriter.bytes(.object(members))
    }

    /// The rule `bytes` describe, with its id and counters; nil when they are not a record this mock wrote.
    static func rule(id: Int, bytes: [UInt8], seen: Int, remaining: Int?) -> InjectionRule? {
        guard let value = try? JSONReader.read(bytes), case .string(let endpoint)? = value["endpoint"], case .int(let after)? = value["after"] else {
            return nil
        }
        let action: Injection
        if case .string(let fault)? = value["fault"] {
            guard let parsed = try? Injection(parsing: fault, codes: []) else { return nil }
            action = parsed
        } else if case .int(let code)? = value["code"] {
            var message: String?
            if case .string(let text)? = value["msg"] { message = text }
            action = .business(code: code, message: message, data: value["data"])
        } else {
            return nil
        }
        var rule = InjectionRule(id: id, endpoint: endpoint, action: action, times: remaining, after: after)
        if case .int(let user)? = value["user"] { rule.user = user }
        if case .string(let session)? = value["session"] { rule.session = session }
        switch value["probability"] {
        case .double(let probability)?: rule.probability = probability
        case .int(let probability)?: rule.probability = Double(probability)
        default: break
        }
        rule.seen = seen
        return rule
    }
}
