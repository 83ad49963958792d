import AccordContract
import AccordImport
import AccordJSON
import AccordValidation
import AccordYAML
import Foundation
import Testing

/// The public OpenAPI documents in `$ACCORD_OPENAPI_CORPUS` (scripts/test points it at the corpus when the
/// machine has one; the documents are not copied into this repository). Each is imported whole: every
/// operation imported or reported, the contracts lint without errors, the mock answers every example kept,
/// and the share of schemas imported as types stays above the document's floor.
@Suite struct RealDocumentTests {
    static let directory = ProcessInfo.processInfo.environment["ACCORD_OPENAPI_CORPUS"]

    static let documents: [String] = directory.map { path in
        ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".json") }.sorted()
    } ?? []

    /// The least share of schemas each document must keep typed (its figure when the floor was set, rounded down).
    static let typedFloors: [String: Double] = [
        "01-oai-petstore": 1, "02-oai-petstore-expanded": 1, "03-oai-uspto": 1, "04-oai-link-example": 1, "05-oai-callback-example": 1,
        "09-oai-tictactoe": 1, "10-swagger-petstore3": 1, "11-spotify-web-api": 1, "14-discord": 0.83, "18-openai": 0.90,
    ]

    @Test func corpusIsThereWhenNamed() throws {
        guard let directory = Self.directory else {
            print("RealDocumentTests: ACCORD_OPENAPI_CORPUS is not set; the public OpenAPI documents were not imported")
            return
        }
        #expect(FileManager.default.fileExists(atPath: directory), "ACCORD_OPENAPI_CORPUS names \(directory), which does not exist")
        #expect(Self.documents.count >= 14, "ACCORD_OPENAPI_CORPUS holds \(Self.documents.count) documents, fewer than 14")
    }

    @Test(arguments: documents)
    func documentImports(_ name: String) throws {
        let path = try #require(Self.directory) + "/" + name
        let result = OpenAPIImport().run(path: path)
        #expect(!result.diagnostics.containsErrors, "\(result.diagnostics.filter { $0.severity == .error }.prefix(3))")
        let declared = try Self.operationCount(path)
        #expect(result.summary.operationsImported + result.summary.operationsSkipped == declared, "every operation imported or reported")
        let stem = String(name.prefix { $0 != "." })
        if let floor = Self.typedFloors[stem] {
            #expect(result.summary.typedShare >= floor, "\(name): \(result.summary)")
        }
        guard result.summary.operationsImported > 0 else {
            #expect(result.files.isEmpty && result.diagnostics.contains { $0.message.hasPrefix("[webhooks]") })
            return
        }
        let sources = result.files.filter { $0.path.hasPrefix("contracts/") }.map { ContractLoader.Source(path: $0.path, bytes: Array($0.text.utf8)) }
        let lint = ContractLint.check(ContractLoader().load(sources, directory: "contracts"))
        #expect(lint.diagnostics.filter { $0.severity == .error }.map(\.description) == [])
        let mock = try ImportedMock(result)
        defer { mock.remove() }
        let (asked, wrong) = try mock.mismatches()
        #expect(wrong.map(\.description) == [], "\(wrong.count) of \(asked) examples answered otherwise")
    }

    /// The operations the document declares, counted from its paths (a path item's `$ref` followed within the file).
    static func operationCount(_ path: String) throws -> Int {
        let document = YAMLParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: path))), file: path)
        let root = try #require(document.root)
        let methods: Set<String> = ["get", "put", "post", "delete", "patch", "head", "options", "trace", "query"]
        return (root["paths"]?.mapping ?? []).reduce(0) { count, pair in
            count + (pair.value.mapping ?? []).filter { $0.key.scalar.map { methods.contains($0.value) } == true }.count
        }
    }
}
