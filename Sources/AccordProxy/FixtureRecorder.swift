import AccordContract
import AccordFiles
import AccordHTTP
import AccordJSON
import AccordMock
import AccordSync
import AccordValidation
import AccordYAML
import Foundation

/// `accord proxy --record-fixtures DIR`: what the upstream answered, written as Accord
/// fixture files `accord serve --mocks DIR` replays: one file per endpoint
/// (`DIR/signal.detail.yaml`), one fixture per distinct matcher (the path parameters,
/// the query, a stream's toggle; for an answer with a business code also the body's
/// scalars) and code, the latest answer winning. A matcher-less answer becomes the
/// endpoint's `default`. Flow codes (signature, tokens, bans) and refusals are not
/// recorded: the mock answers them from its own state.
///
/// Secrets are scrubbed to templates: a login's or refresh's tokens to
/// `{{issued.access_token}}` (the mock issues real ones), other members named
/// `…token` to `{{uuid}}`, phone numbers to `{{request.body.phone}}` when the request
/// sent them, else to `13800000000`. Each file is rewritten whole (temp + rename) when
/// one of its fixtures changes.
public final class FixtureRecorder: Sendable {
    /// The most fixtures kept per endpoint; later distinct matchers are not recorded.
    public static let fixturesPerEndpoint = 200

    public let directory: String
    private let contract: Contract
    private let upstream: String
    private let state = Locked<[String: [Recorded]]>([:])
    private let report: @Sendable (String) -> Void

    /// One recorded fixture and the matcher it is kept under.
    private struct Recorded {
        var key: [UInt8]
        var when: JSONValue
        var name: String
        var members: [JSONValue.Member]

        /// The fixture as written: a matcher-less one is the endpoint's default.
        var fixture: JSONValue {
            let matcher: JSONValue.Member = if case .object(let parts) = when, parts.isEmpty { .init("default", .bool(true)) } else { .init("when", when) }
            return .object([.init("name", .string(name)), matcher] + members)
        }
    }

    /// Creates `directory` if needed.
    /// - Parameter report: receives a line when a file cannot be written.
    public init(directory: String, contract: Contract, upstream: String, report: @escaping @Sendable (String) -> Void) throws(AtomicFile.WriteError) {
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        } catch {
            throw AtomicFile.WriteError(description: "cannot create '\(directory)': \(error.localizedDescription)")
        }
        self.directory = directory
        self.contract = contract
        self.upstream = upstream
        self.report = report
    }

    /// How many fixtures are recorded, over all endpoints.
    public var count: Int {
        state.withLock { $0.values.reduce(0) { $0 + $1.count } }
    }

    /// Records `answer` (the upstream's, before any fault) to `request` of `endpoint`.
    func record(_ answer: MockResponse, to request: MockRequest, endpoint: Endpoint, forwarding: Forwarding) {
        guard let members = fixtureMembers(answer, endpoint: endpoint, requestBody: forwarding.body) else { return }
        let code = members.first { $0.key == "code" }?.value
        let when = matchers(request, endpoint: endpoint, forwarding: forwarding, businessCode: code != nil)
        let key = JSONWriter.bytes(.array([when, code ?? .int(0)]))
        // Written under the lock: two answers of one endpoint never race to its file.
        state.withLock { state in
            var list = state[endpoint.id] ?? []
            if let index = list.firstIndex(where: { $0.key == key }) {
                guard list[index].members != members else { return }
                list[index].members = members
            } else {
                guard list.count < Self.fixturesPerEndpoint else { return }
                list.append(Recorded(key: key, when: when, name: "recorded-\(list.count + 1)", members: members))
            }
            state[endpoint.id] = list
            write(endpoint: endpoint.id, fixtures: list.map(\.fixture))
        }
    }

    /// A fixture's members but its name and matcher: code, message, status when the
    /// code table gives another, and `data` or the stream's events, scrubbed; nil for an
    /// answer that is neither an envelope with 0 or a code the endpoint declares, nor a stream.
    private func fixtureMembers(_ answer: MockResponse, endpoint: Endpoint, requestBody: JSONValue?) -> [JSONValue.Member]? {
        let bytes = answer.bodyBytes
        var members: [JSONValue.Member] = []
        let scrubber = Scrubber(issuesTokens: contract.service.auth.loginEndpoints.contains(endpoint.id)
                                    || endpoint.id == contract.service.auth.refreshEndpoint,
                                requestBody: requestBody)
        if ResponseChecker.isEventStream(answer.header("content-type")) {
            let events = EventStream.payloads(in: bytes).compactMap { try? JSONReader.read($0) }
                .map { JSONValue.object([.init("data", scrubber.scrub($0, at: []))]) }
            guard !events.isEmpty, answer.status == 200 else { return nil }
            members.append(.init("stream", .array(events)))
        } else {
            // Flow codes (signature, tokens, bans) and refusals belong to the server's
            // state, which the mock keeps itself: only the endpoint's own answers are fixtures.
            guard let body = try? JSONReader.read(bytes) else { return nil }
            guard let names = contract.service.envelope else {
                // A plain API: the body is the data; an error is recorded by its status.
                let code = answer.status >= 400 ? answer.status : 0
                guard code == 0 || endpoint.codes.contains(code) else { return nil }
                if answer.status != 200 { members.append(.init("status", .int(answer.status))) }
                if body != .null { members.append(.init("data", scrubber.scrub(body, at: []))) }
                return members
            }
            guard case .int(let code)? = body[names.code], code == 0 || endpoint.codes.contains(code) else { return nil }
            if code != 0 { members.append(.init("code", .int(code))) }
            if case .string(let message)? = body[names.message], message != (contract.service.code(code)?.message ?? "ok") {
                members.append(.init("msg", .string(message)))
            }
            let expected = code == 0 ? 200 : contract.service.code(code)?.httpStatus ?? 200
            if answer.status != expected { members.append(.init("status", .int(answer.status))) }
            if let data = body[names.data], data != .null { members.append(.init("data", scrubber.scrub(data, at: []))) }
        }
        return members
    }

    /// The path parameters, the query and a stream's toggle, as `when` matchers; for a
    /// business code, also the body's top-level text, numbers and booleans (phone
    /// numbers masked), so the endpoint's success stays the default.
    private func matchers(_ request: MockRequest, endpoint: Endpoint, forwarding: Forwarding, businessCode: Bool) -> JSONValue {
        var when: [JSONValue.Member] = []
        let parameters = forwarding.parameters.sorted { $0.key < $1.key }
        if !parameters.isEmpty {
            when.append(.init("params", .object(parameters.map { .init($0.key, .string(Scrubber.maskingPhone($0.value))) })))
        }
        let declared = Set(endpoint.query.map(\.name))
        var seen = Set<String>()
        let query = request.query.filter { declared.contains($0.name) && seen.insert($0.name).inserted }
        if !query.isEmpty {
            when.append(.init("query", .object(query.map { .init($0.name, .string(Scrubber.maskingPhone($0.value))) })))
        }
        var body: [JSONValue.Member] = []
        if businessCode, case .object(let members)? = forwarding.body {
            for member in members {
                switch member.value {
                case .string(let text): body.append(.init(member.key, .string(Scrubber.maskingPhone(text))))
                case .int, .double, .bool: body.append(.init(member.key, .string(JSONWriter.string(member.value))))
                default: break
                }
            }
        } else if let stream = endpoint.stream, forwarding.wantsStream {
            body.append(.init(stream.toggle, .string("true")))
        }
        if !body.isEmpty { when.append(.init("body", .object(body))) }
        return .object(when)
    }

    private func write(endpoint: String, fixtures: [JSONValue]) {
        let document: String
        do {
            document = try YAMLEmitter.document(.object([.init(endpoint, .array(fixtures))]))
        } catch {
            report("accord proxy: cannot record '\(endpoint)': \(error)")
            return
        }
        let header = "# Recorded by accord proxy from \(upstream); replay with accord serve --mocks \(directory)\n"
        let path = (directory as NSString).appendingPathComponent("\(endpoint).yaml")
        do {
            try AtomicFile.write(Array((header + document).utf8), to: path)
        } catch {
            report("accord proxy: \(error)")
        }
    }
}

/// Replaces secrets in a recorded answer with templates.
struct Scrubber {
    /// The endpoint is a login or the refresh: its tokens become `{{issued.…}}`.
    let issuesTokens: Bool
    let requestBody: JSONValue?

    static let issuedMembers: Set<String> = ["access_token", "refresh_token", "access_expires_in", "refresh_expires_in"]

    func scrub(_ value: JSONValue, at path: [String]) -> JSONValue {
        switch value {
        case .object(let members):
            return .object(members.map { member in
                let key = member.key
                if issuesTokens && path.count == 0 && Self.issuedMembers.contains(key) { return .init(key, .string("{{issued.\(key)}}")) }
                if case .string = member.value, key.lowercased().hasSuffix("token") { return .init(key, .string("{{uuid}}")) }
                return .init(key, scrub(member.value, at: path + [key]))
            })
        case .array(let items):
            return .array(items.map { scrub($0, at: path) })
        case .string(let text) where Self.isPhone(text):
            if case .object(let members)? = requestBody, let sent = members.first(where: { $0.value == .string(text) }) {
                return .string("{{request.body.\(sent.key)}}")
            }
            return .string(Self.maskingPhone(text))
        case .string(let text) where text.contains("{{"):
            // Not a template of ours: keep the braces from being read as one.
            return .string(text.replacingOccurrences(of: "{{", with: "{ {"))
        default:
            return value
        }
    }

    /// A mainland mobile number, with or without +86.
    static func isPhone(_ text: String) -> Bool {
        let digits = text.hasPrefix("+86") ? text.dropFirst(3) : text[...]
        let bytes = Array(digits.utf8)
        return bytes.count == 11 && bytes[0] == UInt8(ascii: "1") && (UInt8(ascii: "3")...UInt8(ascii: "9")).contains(bytes[1])
            && bytes.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }
    }

    /// A phone number's carrier prefix kept, the rest zeros: `13912345678` → `13900000000`.
    static func maskingPhone(_ text: String) -> String {
        guard isPhone(text) else { return text }
        let prefix = text.hasPrefix("+86") ? "+86" : ""
        let digits = text.dropFirst(prefix.count)
        return prefix + digits.prefix(3) + String(repeating: "0", count: 8)
    }
}
