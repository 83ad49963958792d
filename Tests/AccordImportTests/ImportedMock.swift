import AccordContract
import AccordHTTP
import AccordImport
import AccordJSON
import AccordMock
import AccordMockState
import AccordSigning
import AccordTesting
import AccordValidation
import Foundation

/// An import written to a fresh directory and served by an in-process mock engine, to ask it for
/// each example the import kept.
struct ImportedMock {
    let directory: URL
    let project: MockProject
    let fixture: EngineFixture

    /// What went wrong loading the written project.
    struct LoadFailure: Error, CustomStringConvertible {
        var description: String
    }

    init(_ result: OpenAPIImport.Result) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-import-\(UUID().uuidString)")
        for file in result.files {
            let url = directory.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.text.write(to: url, atomically: true, encoding: .utf8)
        }
        let mocks = directory.appendingPathComponent("mocks").path
        let outcome = MockProject.load(contracts: directory.appendingPathComponent("contracts").path,
                                       mocks: FileManager.default.fileExists(atPath: mocks) ? mocks : nil)
        guard let project = outcome.project, !outcome.diagnostics.containsErrors else {
            throw LoadFailure(description: outcome.diagnostics.filter { $0.severity == .error }.map(\.description).joined(separator: "\n"))
        }
        self.project = project
        fixture = try EngineFixture(contract: project.contract, fixturesIn: FileManager.default.fileExists(atPath: mocks) ? mocks : nil)
    }

    func remove() {
        try? FileManager.default.removeItem(at: directory)
    }

    /// One example the mock answered otherwise than the import says it would.
    struct Mismatch: CustomStringConvertible {
        var endpoint: String
        var example: String
        var status: Int
        var body: String
        var description: String { "\(endpoint) example '\(example)': \(status) \(body.prefix(300))" }
    }

    /// Asks for every success example and every error fixture by name (`Prefer: example=NAME`), with path, query and header
    /// values the contract admits, and returns each answer that is not the example's status and body.
    func mismatches() throws -> (asked: Int, wrong: [Mismatch]) {
        let builder = try ContractRequest.Builder(contract: project.contract)
        var asked = 0
        var wrong: [Mismatch] = []
        for endpoint in project.contract.endpoints {
            var expectations = endpoint.examples.filter { $0.code == 0 }.compactMap { example in example.response.map { (example.name, 200, $0.value) } }
            expectations += (project.fixtures.byEndpoint[endpoint.id] ?? []).compactMap { fixture in
                fixture.data.map { (fixture.name, fixture.status ?? 200, $0) }
            }
            for (name, status, value) in expectations {
                asked += 1
                let samples = SampleValues(types: project.contract.types)
                let request = builder.request(to: endpoint, parameters: .object(endpoint.parameters.map { .init($0.name, samples.value(for: $0.schema)) }),
                                              query: .object(endpoint.query.filter { !$0.isOptional }.map { .init($0.name, samples.value(for: $0.schema)) }),
                                              body: endpoint.examples.first { $0.name == name }?.body?.value ?? endpoint.examples.first?.body?.value
                                                  ?? endpoint.body.map { samples.value(for: $0) },
                                              accessToken: fixture.token, timestamp: fixture.now, nonce: "n-\(asked)")
                var headers = request.headers + [("Prefer", "example=\(name)")]
                headers += endpoint.headers.filter { !$0.isOptional }.compactMap { field in SortedParams.text(of: samples.value(for: field.schema)).map { (field.name, $0) } }
                if !request.body.isEmpty, !headers.contains(where: { $0.0.lowercased() == "content-type" }) { headers.append(("Content-Type", "application/json")) }
                let answer = fixture.engine.handle(MockRequest(method: request.method, target: request.target, headers: headers, body: request.body))
                var got = try? JSONReader.read(answer.bodyBytes)
                // An envelope's answer holds the example as its data.
                if let envelope = project.contract.service.envelope, status == 200 { got = got?[envelope.data] }
                if answer.status != status || got.map(Self.sorted) != Self.sorted(value) {
                    wrong.append(Mismatch(endpoint: endpoint.id, example: name, status: answer.status, body: String(decoding: answer.bodyBytes, as: UTF8.self)))
                }
            }
        }
        return (asked, wrong)
    }

    /// The value with every object's members in key order, so two writings of one JSON compare equal.
    static func sorted(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let members): .object(members.map { .init($0.key, sorted($0.value)) }.sorted { $0.key < $1.key })
        case .array(let items): .array(items.map(sorted))
        default: value
        }
    }
}

/// Values a schema admits, for the parameters of a request made to ask for an example.
struct SampleValues {
    let types: [String: TypeDeclaration]

    func value(for schema: Schema) -> JSONValue {
        switch schema.kind {
        case .primitive(let primitive):
            switch primitive {
            case .int, .int64: return .int(Int(max(schema.constraints.minimum ?? 1, 1).rounded(.up)))
            case .double: return .double(max(schema.constraints.minimum ?? 1, 1))
            case .bool: return .bool(true)
            case .dateTime: return .string("2026-11-30T08:00:00Z")
            case .date: return .string("2026-11-30")
            case .url: return .string("https://example.com/a")
            case .decimal: return .string("1")
            case .string, .any:
                if let pattern = schema.constraints.pattern, let text = PatternExample.shortest(matching: pattern) { return .string(text) }
                return .string(String(repeating: "a", count: max(schema.constraints.minLength ?? 1, 1)))
            }
        case .enumeration(let cases):
            switch cases.cases.first?.value {
            case .int(let number)?: return .int(number)
            case .string(let text)?: return .string(text)
            case nil: return .null
            }
        case .array(let item): return .array([value(for: item)])
        case .reference(let name): return types[name].map { value(for: $0.schema) } ?? .null
        case .object(let fields): return .object(fields.filter { !$0.isOptional }.map { .init($0.name, value(for: $0.schema)) })
        default: return .object([])
        }
    }
}
