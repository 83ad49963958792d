import AccordContract
import AccordImport
import AccordValidation
import Foundation
import Testing

/// Every directory under `Corpus/` is an OpenAPI document written for one feature (`openapi.yaml` or
/// `openapi.json`, with the files it refers to), and `expected/` holds the exact files the import writes
/// and `expected/diagnostics.txt` every diagnostic it reports, in order. `ACCORD_UPDATE_GOLDEN=1`
/// rewrites `expected/` from what the import does now (review the diff before committing it). A case with
/// `envelope.txt` is imported with that `--envelope`.
@Suite struct ImportCorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    static let cases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()

    @Test func corpusCoversEveryFeature() {
        #expect(Self.cases.count >= 14)
    }

    @Test(arguments: cases)
    func documentIsImportedExactly(_ name: String) throws {
        let directory = Self.root.appendingPathComponent(name)
        let result = try Self.importCase(directory)
        let actual = Self.rendered(result, relativeTo: directory.path)
        let expectedDirectory = directory.appendingPathComponent("expected")
        if ProcessInfo.processInfo.environment["ACCORD_UPDATE_GOLDEN"] == "1" {
            try? FileManager.default.removeItem(at: expectedDirectory)
            for (path, text) in actual {
                let url = expectedDirectory.appendingPathComponent(path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try text.write(to: url, atomically: true, encoding: .utf8)
            }
        }
        let expected = try Self.files(in: expectedDirectory)
        #expect(expected.keys.sorted() == actual.keys.sorted())
        for (path, text) in actual.sorted(by: { $0.key < $1.key }) {
            #expect(expected[path] == text, "\(name)/expected/\(path) differs")
        }
    }

    /// What every case imports lints without errors and warnings (the import never writes a broken contract),
    /// and its mock answers each example it kept, by name, with that example.
    @Test(arguments: cases)
    func importedProjectLintsCleanAndAnswersItsExamples(_ name: String) throws {
        let result = try Self.importCase(Self.root.appendingPathComponent(name))
        let sources = result.files.filter { $0.path.hasPrefix("contracts/") }.map { ContractLoader.Source(path: $0.path, bytes: Array($0.text.utf8)) }
        guard !sources.isEmpty else { return }
        let outcome = ContractLint.check(ContractLoader().load(sources, directory: "contracts"))
        #expect(outcome.diagnostics.map(\.description) == [])
        let mock = try ImportedMock(result)
        defer { mock.remove() }
        let (asked, wrong) = try mock.mismatches()
        #expect(wrong.map(\.description) == [], "\(wrong.count) of \(asked) examples answered otherwise")
        if name == "examples" { #expect(asked == 5) }
    }

    static func importCase(_ directory: URL) throws -> OpenAPIImport.Result {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
        let document = try #require(names.first { $0 == "openapi.yaml" || $0 == "openapi.json" })
        // `envelope.txt` holds what `--envelope` would be given (`code,msg,data`).
        let envelope = try? String(contentsOf: directory.appendingPathComponent("envelope.txt"), encoding: .utf8)
        let options = OpenAPIImport(envelope: envelope.flatMap { OpenAPIImport.envelope(list: $0.trimmingCharacters(in: .whitespacesAndNewlines)) })
        return options.run(path: directory.appendingPathComponent(document).path)
    }

    /// The files an import writes and its diagnostics, paths relative to the case's directory.
    static func rendered(_ result: OpenAPIImport.Result, relativeTo base: String) -> [String: String] {
        var files = Dictionary(uniqueKeysWithValues: result.files.map { ($0.path, $0.text) })
        let lines = result.diagnostics.map { $0.description.replacingOccurrences(of: base + "/", with: "") }
        files["diagnostics.txt"] = (lines + [result.summary.description]).joined(separator: "\n") + "\n"
        return files
    }

    static func files(in directory: URL) throws -> [String: String] {
        var result: [String: String] = [:]
        guard let enumerator = FileManager.default.enumerator(atPath: directory.path) else { return result }
        for case let path as String in enumerator where path.hasSuffix(".yaml") || path.hasSuffix(".txt") {
            result[path] = try String(contentsOf: directory.appendingPathComponent(path), encoding: .utf8)
        }
        return result
    }
}
