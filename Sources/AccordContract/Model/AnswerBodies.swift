import AccordJSON

extension Service {
    /// The JSON body of an answer with `code` (0 for success): with an envelope,
    /// `{code, msg, data}`; for a plain API the data itself on success, else the error
    /// body the fixture wrote (`data`) or the problem document of `entry`.
    public func answerBody(code: Int, message: String?, data: JSONValue?, entry: BusinessCode? = nil) -> JSONValue {
        guard let envelope else {
            if code == 0 { return data ?? .null }
            return data ?? problem(status: code, entry: entry ?? self.code(code), detail: message)
        }
        return .object([
            .init(envelope.code, .int(code)),
            // Code 0 is never in the table (lint refuses it): no lookup for a success.
            .init(envelope.message, .string(message ?? (code == 0 ? nil : self.code(code)?.message) ?? "ok")),
            // A code without details carries null.
            .init(envelope.data, data ?? .null),
        ])
    }

    /// An RFC 9457 problem document for an error `status`: `type` (the entry's
    /// discriminator when it is `type`, else `about:blank`), `title` (the entry's message,
    /// else its name), `status`, `detail`, the entry's other discriminator member, then
    /// `members` (extensions such as `violations`).
    public func problem(status: Int, entry: BusinessCode?, detail: String?, members: [JSONValue.Member] = []) -> JSONValue {
        let discriminator = entry?.discriminator
        let type = discriminator?.member == "type" ? discriminator!.value : "about:blank"
        var body: [JSONValue.Member] = [.init("type", .string(type))]
        let title = entry.map { $0.message.isEmpty ? $0.name : $0.message } ?? HTTPStatusText.reason(status)
        body.append(.init("title", .string(title)))
        body.append(.init("status", .int(status)))
        if let detail { body.append(.init("detail", .string(detail))) }
        if let discriminator, discriminator.member != "type" { body.append(.init(discriminator.member, .string(discriminator.value))) }
        return .object(body + members.filter { member in !body.contains { $0.key == member.key } })
    }

    /// The `Content-Type` of an answer with `code`: JSON, or the plain API's error media type.
    public func contentType(code: Int) -> String {
        envelope == nil && code != 0 ? errors.mediaType : "application/json; charset=utf-8"
    }
}

/// The reason phrases of the error statuses a problem document falls back to as its title.
enum HTTPStatusText {
    static func reason(_ status: Int) -> String {
        switch status {
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 403: "Forbidden"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 406: "Not Acceptable"
        case 409: "Conflict"
        case 411: "Length Required"
        case 413: "Content Too Large"
        case 415: "Unsupported Media Type"
        case 422: "Unprocessable Content"
        case 429: "Too Many Requests"
        case 500: "Internal Server Error"
        case 502: "Bad Gateway"
        case 503: "Service Unavailable"
        case 504: "Gateway Timeout"
        default: "HTTP \(status)"
        }
    }
}

extension Service {
    /// The code an answer carries: the envelope's `code`, or for a plain API its HTTP
    /// status when that is an error (0 for a success).
    public func code(of body: JSONValue?, status: Int) -> Int? {
        guard let envelope else { return status >= 400 ? status : 0 }
        if case .int(let code)? = body?[envelope.code] { return code }
        return nil
    }

    /// What a successful answer carries: the envelope's `data`, or a plain API's whole body.
    public func data(of body: JSONValue?) -> JSONValue? {
        guard let envelope else { return body }
        return body?[envelope.data]
    }

    /// The message of an answer: the envelope's `msg`, or a problem's `detail` (else its `title`).
    public func message(of body: JSONValue?) -> String? {
        let members = envelope.map { [$0.message] } ?? ["detail", "title"]
        for member in members {
            if case .string(let text)? = body?[member] { return text }
        }
        return nil
    }
}
