import AccordContract
import AccordJSON

/// One `{{ … }}` expression of a fixture template.
///
/// | expression | value |
/// |---|---|
/// | `request.path.NAME`, `request.query.NAME`, `request.header.NAME` | the string sent |
/// | `request.body.a.b` or `request.body/a/b` | the JSON value at that place in the body |
/// | `uuid` | a random UUID |
/// | `now`, `now + 2h`, `now - 30m` | an RFC 3339 time on the mock clock |
/// | `timestamp` | the mock clock in Unix seconds |
/// | `seq` | 1, 2, 3, … across the server |
/// | `random 1 100` | an integer in the range, from the server's seeded generator |
/// | `user` | the uid the request's access token belongs to (null without one) |
/// | `record`, `record.a.b` | the record an effect inserted, updated or read (or a member of it) |
/// | `state.NAME`, `state.NAME.a.b` | the record of collection NAME that the fixture's `when: {state: …}` found |
/// | `upload.PART`, `upload.PART.url` (`id`, `size`, `content_type`) | the file of multipart part PART, as the mock stored it |
/// | `upload_policy`, `upload_policy.upload_url` (`method`, `headers`, `max_size`, `content_types`, `public_url`, `expires_at`) | a signed direct upload for the body's `content_type` and `size` |
/// | `issued.access_token`, `issued.refresh_token`, `issued.access_expires_in`, `issued.refresh_expires_in` | the tokens the server issued with this answer (login and refresh; written in automatically) |
public enum TemplateExpression: Sendable, Hashable {
    /// A member of the token pair issued with a login or refresh answer.
    public enum IssuedField: String, Sendable, Hashable, CaseIterable {
        case accessToken = "access_token", refreshToken = "refresh_token"
        case accessExpiresIn = "access_expires_in", refreshExpiresIn = "refresh_expires_in"
    }

    case pathParameter(String)
    case query(String)
    case header(String)
    case body(pointer: String)
    case uuid
    case now(offsetSeconds: Int64)
    case timestamp
    case sequence
    case random(ClosedRange<Int>)
    case issued(IssuedField)
    case user
    case record(JSONPointer)
    case found(collection: String, JSONPointer)
    case upload(part: String, JSONPointer)
    case uploadPolicy(JSONPointer)

    /// Why an expression cannot be read.
    public struct SyntaxError: Error, Sendable {
        public var message: String
    }

    package static let names = ["request.path.", "request.query.", "request.header.", "request.body.", "uuid", "now", "timestamp", "seq", "random",
                        "user", "record", "state.", "upload.", "upload_policy"]
        + IssuedField.allCases.map { "issued.\($0.rawValue)" }

    /// Reads the text between `{{` and `}}`.
    public init(parsing source: String) throws(SyntaxError) {
        let text = source.trimmingCharacters(in: .whitespaces)
        let words = text.split(separator: " ", omittingEmptySubsequences: true)
        func suffix(after prefix: String) -> String? {
            text.hasPrefix(prefix) && text.count > prefix.count ? String(text.dropFirst(prefix.count)) : nil
        }
        if let name = suffix(after: "request.path.") { self = .pathParameter(name); return }
        if let name = suffix(after: "request.query.") { self = .query(name); return }
        if let name = suffix(after: "request.header.") ?? suffix(after: "request.headers.") { self = .header(name); return }
        if let path = suffix(after: "request.body.") {
            self = .body(pointer: "/" + path.split(separator: ".").map { String($0).jsonPointerEscaped }.joined(separator: "/"))
            return
        }
        if let pointer = suffix(after: "request.body"), pointer.hasPrefix("/") { self = .body(pointer: pointer); return }
        if text == "request.body" { self = .body(pointer: ""); return }
        if let name = suffix(after: "issued."), let field = IssuedField(rawValue: name) { self = .issued(field); return }
        if text == "user" { self = .user; return }
        if text == "record" { self = .record(JSONPointer(tokens: [])); return }
        if let path = suffix(after: "record.") { self = .record(Self.memberPath(path)); return }
        if let path = suffix(after: "state.") {
            let names = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            // `state...` or `state.` names no collection: refused rather than read past the end (FuzzTemplate found it).
            guard let collection = names.first, !collection.isEmpty else {
                throw SyntaxError(message: "expected 'state.NAME' or 'state.NAME.member', found '\(text)'")
            }
            self = .found(collection: collection, names.count > 1 ? Self.memberPath(names[1]) : JSONPointer(tokens: []))
            return
        }
        if text == "upload_policy" { self = .uploadPolicy(JSONPointer(tokens: [])); return }
        if let path = suffix(after: "upload_policy.") { self = .uploadPolicy(Self.memberPath(path)); return }
        if let path = suffix(after: "upload.") {
            let names = path.split(separator: ".", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            // `upload..` or `upload.` names no part: refused rather than read past the end (FuzzTemplate found it).
            guard let part = names.first, !part.isEmpty else {
                throw SyntaxError(message: "expected 'upload.PART' or 'upload.PART.url', found '\(text)'")
            }
            self = .upload(part: part, names.count > 1 ? Self.memberPath(names[1]) : JSONPointer(tokens: []))
            return
        }
        switch words.first {
        case "uuid" where words.count == 1: self = .uuid
        case "timestamp" where words.count == 1: self = .timestamp
        case "seq" where words.count == 1: self = .sequence
        case "now":
            if words.count == 1 { self = .now(offsetSeconds: 0); return }
            guard words.count == 3, words[1] == "+" || words[1] == "-", let seconds = Self.seconds(String(words[2])) else {
                throw SyntaxError(message: "expected 'now', 'now + 2h' or 'now - 30m' (units s, m, h, d), found '\(text)'")
            }
            self = .now(offsetSeconds: words[1] == "+" ? seconds : -seconds)
        case "random":
            guard words.count == 3, let low = Int(words[1]), let high = Int(words[2]), low <= high else {
                throw SyntaxError(message: "expected 'random LOW HIGH' with LOW <= HIGH, found '\(text)'")
            }
            self = .random(low...high)
        default:
            let hint = NameSuggestion.hint(for: text, in: Self.names)
            throw SyntaxError(message: "unknown template expression '\(text)'\(hint)")
        }
    }

    /// `a.b.c` as a pointer to a member.
    private static func memberPath(_ path: String) -> JSONPointer {
        JSONPointer(tokens: path.split(separator: ".").map(String.init))
    }

    /// `90s`, `10m`, `2h`, `1d`.
    package static func seconds(_ text: String) -> Int64? {
        DurationText.seconds(text).map(Int64.init)
    }
}
