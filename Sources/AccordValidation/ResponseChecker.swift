import AccordContract
import AccordJSON

/// Checks what a server answered against the contract: the envelope, a business code
/// the endpoint declares (or one of the service's own flows), the HTTP status the code
/// table gives that code, and `data` against the endpoint's response type for code 0
/// (each event's data, for a stream). Pointers start at the envelope: `/data/items/0/id`.
public struct ResponseChecker: Sendable {
    public let contract: Contract
    private let validator: SchemaValidator
    /// The codes any endpoint may answer: the violation code and every flow role's.
    private let serviceCodes: Set<Int>

    public init(contract: Contract) {
        self.contract = contract
        validator = SchemaValidator(contract: contract)
        serviceCodes = FlowCodes(service: contract.service).serviceCodes
    }

    /// Every way the answer (`status`, `Content-Type`, `body`) to a call of `endpoint` breaks the contract.
    public func check(endpoint: Endpoint, status: Int, contentType: String?, body: [UInt8]) -> [Violation] {
        if Self.isEventStream(contentType) {
            return checkStream(endpoint: endpoint, status: status, body: body)
        }
        let mediaType = contentType?.split(separator: ";").first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() } ?? ""
        // A binary endpoint's success is bytes of a declared media type; its failures are envelopes.
        if let types = endpoint.binary, (200..<300).contains(status), !mediaType.hasSuffix("json") {
            guard MediaTypes.matches(mediaType, types) else {
                let found = mediaType.isEmpty ? "no Content-Type" : "'\(mediaType)'"
                return [Violation(pointer: "", expected: "one of \(types.joined(separator: ", "))", actual: found,
                                  message: "HTTP \(status) with \(found); '\(endpoint.id)' answers \(types.joined(separator: ", "))")]
            }
            return []
        }
        let envelope: JSONValue
        do {
            envelope = try JSONReader.read(body)
        } catch {
            let found = body.isEmpty ? "an empty body" : "\(mediaType.isEmpty ? "a" : mediaType) body that is not JSON (\(error.message))"
            let what = contract.service.envelope == nil ? "JSON" : "a JSON envelope"
            return [Violation(pointer: "", expected: what, actual: found,
                              message: "HTTP \(status) with \(found); the contract answers with \(what)")]
        }
        return check(endpoint: endpoint, status: status, envelope: envelope)
    }

    /// Whether `contentType` announces server-sent events.
    public static func isEventStream(_ contentType: String?) -> Bool {
        guard var bytes = contentType?.utf8[...] else { return false }
        while bytes.first == 0x20 || bytes.first == 0x09 { bytes = bytes.dropFirst() }
        let mediaType = "text/event-stream".utf8
        guard bytes.count >= mediaType.count,
              zip(bytes, mediaType).allSatisfy({ $0 | 0x20 == $1 | 0x20 }) else { return false }
        let rest = bytes.dropFirst(mediaType.count)
        return rest.first.map { $0 == UInt8(ascii: ";") || $0 == 0x20 || $0 == 0x09 } ?? true
    }

    /// Every way a parsed envelope (or a plain API's body) and its HTTP `status` break the contract.
    public func check(endpoint: Endpoint, status: Int, envelope: JSONValue) -> [Violation] {
        guard let names = contract.service.envelope else { return check(endpoint: endpoint, status: status, plainBody: envelope) }
        guard case .object = envelope else {
            return [Violation(pointer: "", expected: "an envelope object", actual: envelope.summary,
                              message: "expected an envelope object {\(names.code), \(names.message), \(names.data)}, found \(envelope.summary)")]
        }
        var violations: [Violation] = []
        guard case .int(let code)? = envelope[names.code] else {
            let found = envelope[names.code]?.summary ?? "absent"
            return [Violation(pointer: "/\(names.code.jsonPointerEscaped)", expected: "integer", actual: found,
                              message: "expected the business code as an integer, found \(found)")]
        }
        if case .string? = envelope[names.message] {} else {
            let found = envelope[names.message]?.summary ?? "absent"
            violations.append(Violation(pointer: "/\(names.message.jsonPointerEscaped)", expected: "string", actual: found,
                                        message: "expected the message as a string, found \(found)"))
        }
        violations += check(endpoint: endpoint, status: status, code: code)
        if code == 0 {
            let data = envelope[names.data] ?? .null
            violations += validator.validate(data, against: endpoint.response, at: "/\(names.data.jsonPointerEscaped)")
        } else if let payload = contract.service.code(code)?.data {
            let data = envelope[names.data] ?? .null
            violations += validator.validate(data, against: payload, at: "/\(names.data.jsonPointerEscaped)")
        }
        return violations
    }

    /// A plain API's answer: a success is the response type itself; an error status is
    /// one the endpoint or the service's flows declare, with the body its entry types.
    private func check(endpoint: Endpoint, status: Int, plainBody body: JSONValue) -> [Violation] {
        if (200..<300).contains(status) { return validator.validate(body, against: endpoint.response, at: "") }
        let declared = endpoint.codes.contains(status) || serviceCodes.contains(status)
        guard declared else {
            let list = endpoint.codes.map(String.init).joined(separator: ", ")
            return [Violation(pointer: "", expected: list.isEmpty ? "a 2xx status or a service flow status" : "a 2xx status, \(list) or a service flow status",
                              actual: "HTTP \(status)", message: "HTTP \(status) is not declared for '\(endpoint.id)'"
                                  + (list.isEmpty ? "" : " (it declares \(list))"))]
        }
        guard let type = contract.service.code(status: status, body: body)?.data ?? contract.service.errors.body else { return [] }
        return validator.validate(body, against: type, at: "")
    }

    /// Whether `code` is one `endpoint` may answer, with the HTTP status the code table gives it.
    public func check(endpoint: Endpoint, status: Int, code: Int) -> [Violation] {
        let declared = code == 0 || endpoint.codes.contains(code) || serviceCodes.contains(code)
        guard declared else {
            let list = ([0] + endpoint.codes).map(String.init).joined(separator: ", ")
            return [Violation(pointer: "/\((contract.service.envelope?.code ?? "").jsonPointerEscaped)", expected: "one of \(list) or a service flow code",
                              actual: "\(code)", message: "code \(code) is not declared for '\(endpoint.id)' (it declares \(list))")]
        }
        let expected = code == 0 ? 200 : contract.service.code(code)?.httpStatus ?? 200
        guard status == expected || (code == 0 && (200..<300).contains(status)) else {
            return [Violation(pointer: "", expected: "HTTP \(expected)", actual: "HTTP \(status)",
                              message: "code \(code) travels with HTTP \(expected) in the contract, found HTTP \(status)")]
        }
        return []
    }

    /// A `text/event-stream` answer: each `data:` line's JSON against the stream's event type, up to `[DONE]`.
    private func checkStream(endpoint: Endpoint, status: Int, body: [UInt8]) -> [Violation] {
        guard let stream = endpoint.stream else {
            return [Violation(pointer: "", expected: "a JSON envelope", actual: "an event stream",
                              message: "'\(endpoint.id)' does not stream, found a text/event-stream answer")]
        }
        guard status == 200 else {
            return [Violation(pointer: "", expected: "HTTP 200", actual: "HTTP \(status)", message: "a stream travels with HTTP 200, found HTTP \(status)")]
        }
        var violations: [Violation] = []
        for (index, payload) in EventStream.payloads(in: body).enumerated() {
            do {
                violations += validator.validate(try JSONReader.read(payload), against: stream.event, at: "/events/\(index)")
            } catch {
                violations.append(Violation(pointer: "/events/\(index)", expected: "JSON", actual: "text that is not JSON",
                                            message: "event \(index) is not JSON: \(error.message)"))
            }
        }
        return violations
    }
}
