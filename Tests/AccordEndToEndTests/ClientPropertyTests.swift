import AccordContract
import AccordHTTP
import AccordJSON
import AccordTesting
import AccordValidation
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
import TongbanAPI

/// Random valid requests for every endpoint of `contracts/`, through the generated
/// client's runtime (escaping, canonical JSON, signing) to the real `accord serve`:
/// none may be refused as invalid (1000) or badly signed (1001), and the journal must
/// show the server saw exactly the values sent.
///
/// `ACCORD_SEED` replays a run; `ACCORD_PROPERTY_REQUESTS` changes the count (2,000).
@Suite struct ClientPropertyTests {
    private typealias AnyJSON = TongbanAPI.AccordJSON

    /// Whether a refusal names only the query's `cursor` (a list cursor the server never issued).
    private static func refusesOnlyTheCursor(_ envelope: Data) -> Bool {
        guard case .array(let violations)? = (try? JSONReader.read(Array(envelope)))?.value(at: "/data/violations") else { return false }
        return violations.count == 1 && violations[0]["pointer"] == .string("/query/cursor")
    }

    /// One random request for `endpoint`, and the values the server should see.
    private struct Sample {
        var endpoint: TongbanAPI.Endpoint<AnyJSON>
        var parameters: [String: String]
        var query: [[String]]
        var body: JSONValue?
    }

    @Test func randomValidRequestsArriveExactlyAsSent() async throws {
        let environment = ProcessInfo.processInfo.environment
        let seed = environment["ACCORD_SEED"].flatMap { UInt64($0) } ?? UInt64.random(in: 0...UInt64.max)
        let count = environment["ACCORD_PROPERTY_REQUESTS"].flatMap { Int($0) } ?? 2_000
        let contract = Repository.contract
        var values = RandomValues(contract: contract, seed: seed)
        let server = try ServerProcess(arguments: ["--quiet"])
        let api = APIClient(configuration: ClientConfiguration(serverURL: URL(string: server.baseURL)!, appKey: "dev_app_key",
                                                               appSecret: "dev_app_secret", deviceID: "property", os: "ios", appVersion: "1.2.0"))
        try await logIn(api)
        var failures = 0
        for index in 0..<count where failures < 5 {
            let endpoint = contract.endpoints[index % contract.endpoints.count]
            let sample = sample(for: endpoint, values: &values)
            let context = "seed \(seed) (ACCORD_SEED=\(seed)), request \(index), \(endpoint.id)"
            var sessionEnded = false
            do {
                _ = try await api.send(sample.endpoint)
            } catch {
                switch error {
                case .business(let code, _, let envelope?) where code.rawValue == 1000 && Self.refusesOnlyTheCursor(envelope):
                    break  // a random cursor arrives as sent, then is refused: the server never issued it
                case .business(let code, let message, _) where code.rawValue == 1000 || code.rawValue == 1001:
                    Issue.record("\(context): \(code.rawValue) \(message)")
                    failures += 1
                case .sessionEnded:
                    sessionEnded = true  // a random logout or refresh ended the session: fine, log in again below
                case .business, .banned:
                    break
                default:
                    Issue.record("\(context): \(error)")
                    failures += 1
                }
            }
            guard let seen = try await lastRequest(server) else {
                Issue.record("\(context): the journal is empty")
                failures += 1
                continue
            }
            let matches = seen["endpoint"] == .string(endpoint.id) && (seen["params"] ?? .object([])) == parametersJSON(sample.parameters)
                && (seen["query"] ?? .array([])) == .array(sample.query.map { .array($0.map(JSONValue.string)) })
                && canonical(seen["body"]) == canonical(sample.body)
            if !matches {
                Issue.record("\(context): the server saw \(JSONWriter.string(seen)), sent \(sample.parameters) \(sample.query) \(sample.body.map { JSONWriter.string($0) } ?? "no body")")
                failures += 1
            }
            if sessionEnded { try await logIn(api) }
        }
    }

    private func logIn(_ api: APIClient) async throws {
        let device = DeviceInfo(deviceID: "D-1", os: .ios, osVersion: "26.1", model: "iPhone", appVersion: "1.2.0")
        _ = try await api.send(API.auth.loginPhone(AuthLoginPhoneRequest(phone: "13800138000", code: "123456", deviceInfo: device)))
    }

    /// A 1×1 PNG on disk, the file every sampled upload sends.
    static let samplePNG: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("accord-property-\(UUID().uuidString).png")
        try? Data(SampleFile.png).write(to: url)
        return url
    }()

    private func sample(for endpoint: AccordContract.Endpoint, values: inout RandomValues) -> Sample {
        var parameters: [String: String] = [:]
        for field in endpoint.parameters {
            // A path parameter is never empty: an empty segment is another path.
            var schema = field.schema
            schema.constraints.minLength = max(1, schema.constraints.minLength ?? 1)
            parameters[field.name] = text(values.value(for: schema))
        }
        let path = endpoint.path.segments.map { segment -> String in
            switch segment {
            case .literal(let text): text
            case .parameter(let name): TongbanAPI.Endpoint<AnyJSON>.segment(parameters[name] ?? "")
            }
        }
        var query: [[String]] = []
        for field in endpoint.query where !field.isOptional || Bool.random(using: &values.random) {
            switch values.value(for: field.schema) {
            case .array(let items): query += items.map { [field.name, text($0)] }
            case let value: query.append([field.name, text(value)])
            }
        }
        var headers: [TongbanAPI.QueryItem] = []
        for field in endpoint.headers where !field.isOptional || Bool.random(using: &values.random) {
            headers.append(.init(name: field.name, value: text(values.value(for: field.schema, asHeader: true))))
        }
        var body = endpoint.body.map { values.value(for: $0) }
        if let toggle = endpoint.stream?.toggle, case .object(var members)? = body {
            // The plain answer: a stream is not what `send` reads.
            members.removeAll { $0.key == toggle }
            members.append(.init(toggle, .bool(false)))
            body = .object(members)
        }
        // A multipart body: random text parts, and the sample image under a random file name.
        var multipart: TongbanAPI.MultipartBody?
        if let parts = endpoint.multipart {
            var fields: [TongbanAPI.QueryItem] = []
            var files: [(name: String, file: FilePart)] = []
            for part in parts {
                switch part.content {
                case .text(let schema) where !part.isOptional || Bool.random(using: &values.random):
                    fields.append(.init(name: part.name, value: text(values.value(for: schema))))
                case .file(let rule):
                    var name = Schema(.primitive(.string), location: endpoint.location)
                    name.constraints.minLength = 1
                    files.append((part.name, FilePart(fileURL: Self.samplePNG, filename: text(values.value(for: name)) + ".png",
                                                      contentType: rule.contentTypes.contains("image/png") ? "image/png" : rule.contentTypes[0])))
                case .text:
                    continue
                }
            }
            multipart = .init(fields: fields, files: files)
            body = .object(fields.map { .init($0.name, .string($0.value)) })
        }
        let method = TongbanAPI.HTTPMethod(rawValue: endpoint.method.rawValue) ?? .get
        return Sample(
            endpoint: .init(id: endpoint.id, method: method, path: "/" + path.joined(separator: "/"),
                            query: query.map { .init(name: $0[0], value: $0[1]) }, headers: headers,
                            body: multipart == nil ? body.map(anyJSON) : nil, multipart: multipart, requiresAuth: endpoint.requiresAuth),
            parameters: parameters, query: query, body: body)
    }

    /// How a value travels in a path, query or header.
    private func text(_ value: JSONValue) -> String {
        switch value {
        case .string(let text): text
        case .int(let number): String(number)
        case .double(let number): JSONWriter.number(number)
        case .bool(let flag): flag ? "true" : "false"
        default: JSONWriter.string(value)
        }
    }

    private func anyJSON(_ value: JSONValue) -> AnyJSON {
        switch value {
        case .null: .null
        case .bool(let flag): .bool(flag)
        case .int(let number): .integer(Int64(number))
        case .double(let number): .number(number)
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(anyJSON))
        case .object(let members): .object(Dictionary(members.map { ($0.key, anyJSON($0.value)) }) { first, _ in first })
        }
    }

    private func parametersJSON(_ parameters: [String: String]) -> JSONValue {
        .object(parameters.sorted { $0.key < $1.key }.map { .init($0.key, .string($0.value)) })
    }

    private func canonical(_ value: JSONValue?) -> String? {
        value.map { JSONWriter.string($0, sortedKeys: true) }
    }

    private func lastRequest(_ server: ServerProcess) async throws -> JSONValue? {
        let (data, _) = try await URLSession.shared.data(from: URL(string: server.baseURL + "/__accord/requests?limit=1")!)
        guard case .array(let entries)? = try JSONReader.read(Array(data))["requests"] else { return nil }
        return entries.last
    }
}
