import AccordContract
import AccordJSON

/// A line of an `accord serve --record` journal as a captured exchange. The journal
/// keeps the request (its headers with credentials masked, its JSON body up to 4 KiB)
/// and the answer's status and code; its body only for the flow rules.
public enum JournalLine {
    /// The exchange on `line`; `origin` names it in messages.
    /// - Parameter readsFlows: also read what the flow rules need (session, times, token tag, number).
    public static func exchange(_ line: ArraySlice<UInt8>, origin: String, readsFlows: Bool = false) throws(CaptureError) -> CapturedExchange {
        let entry: JSONValue
        do {
            entry = try JSONReader.read(line)
        } catch {
            throw CaptureError("\(origin):\(error.column): not a journal line: \(error.message)")
        }
        guard case .object(let members) = entry else { throw CaptureError("\(origin): not a journal line: not a JSON object") }
        // One pass over the members: a journal line has a dozen, and is read 100,000 times.
        var method: String?, path: String?, time: Int64?, status: Int?, code: Int?, omitted: Int?, verdict: String?, injected = false
        var flow = FlowMembers()
        var query: [JSONValue] = [], headerMembers: [JSONValue.Member] = []
        var body: [UInt8] = []
        for member in members {
            switch (member.key, member.value) {
            case ("method", .string(let text)): method = text
            case ("path", .string(let text)): path = text
            case ("wall", .int(let seconds)): time = Int64(seconds)
            case ("query", .array(let pairs)): query = pairs
            case ("headers", .object(let members)): headerMembers = members
            case ("body", let json): body = JSONWriter.bytes(json)
            case ("body_omitted_bytes", .int(let bytes)): omitted = bytes
            case ("status", .int(let value)): status = value
            case ("code", .int(let value)): code = value
            case ("verdict", .string(let text)): verdict = text
            case ("injected", .string): injected = true
            // Read only for the flow rules: every other entry is judged without comparing its members to these.
            case _ where readsFlows: flow.read(member)
            default: break
            }
        }
        guard let method, let path else { throw CaptureError("\(origin): not a journal line: it has no 'method' and 'path'") }
        var target = path
        let encoded = query.compactMap { pair -> String? in
            guard case .array(let items) = pair, items.count == 2, case .string(let name) = items[0], case .string(let value) = items[1] else {
                return nil
            }
            return PercentEncoding.component(name) + "=" + PercentEncoding.component(value)
        }
        if !encoded.isEmpty { target += "?" + encoded.joined(separator: "&") }
        let headers = headerMembers.compactMap { member -> (name: String, value: String)? in
            if case .string(let value) = member.value { (member.key, value) } else { nil }
        }
        let response = status.map { CapturedExchange.Response(status: $0, contentType: nil, body: nil, code: code, redirect: nil) }
        var exchange = CapturedExchange(origin: origin, time: time, method: method, host: nil, target: target, headers: headers, body: body,
                                        omittedBodyBytes: omitted, response: response, recordedVerdict: verdict)
        exchange.injected = injected
        if let session = flow.session { exchange.session = session }
        (exchange.sentMicroseconds, exchange.answeredMicroseconds, exchange.tokenTag) = (flow.sent, flow.answered, flow.tokenTag)
        exchange.journalSequence = flow.sequence
        exchange.fault = flow.fault
        exchange.journaledAnswer = flow.answer
        return exchange
    }
}

/// The members of a journal line the flow rules read.
private struct FlowMembers {
    var session: String?, sent: Int64?, answered: Int64?, tokenTag: String?, sequence: Int?, fault: String?, answer: JSONValue?

    mutating func read(_ member: JSONValue.Member) {
        switch (member.key, member.value) {
        case ("session", .string(let text)): session = text
        case ("seq", .int(let value)): sequence = value
        case ("sent_us", .int(let value)): sent = Int64(value)
        case ("answered_us", .int(let value)): answered = Int64(value)
        case ("token_tag", .string(let text)): tokenTag = text
        case ("fault", .string(let text)): fault = text
        case ("response_body", let body): answer = body
        default: break
        }
    }
}
