import AccordContract
import AccordValidation
import Foundation
import Testing

/// Every directory under `Corpus/` is a broken contract set: its YAML files laid over
/// `Corpus/_base` (unless it holds a `standalone` marker), and `expected.txt` lists the
/// exact diagnostics `accord lint` must print for it, in order.
@Suite struct CorpusTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Corpus")

    static let cases: [String] = ((try? FileManager.default.contentsOfDirectory(atPath: root.path)) ?? [])
        .filter { !$0.hasPrefix("_") }
        .sorted()

    @Test func corpusHasAtLeastFortyCases() {
        #expect(Self.cases.count >= 40)
    }

    @Test(arguments: cases)
    func brokenContractIsReportedExactly(_ name: String) throws {
        let directory = Self.root.appendingPathComponent(name)
        let expected = try String(contentsOf: directory.appendingPathComponent("expected.txt"), encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let outcome = ContractLint.check(ContractLoader().load(try sources(for: directory), directory: name))
        #expect(outcome.diagnostics.map(\.description) == expected)
        #expect(!expected.isEmpty)
    }

    /// The case's files by name, over the base files it does not replace.
    private func sources(for directory: URL) throws -> [ContractLoader.Source] {
        let fileManager = FileManager.default
        var files: [String: URL] = [:]
        if !fileManager.fileExists(atPath: directory.appendingPathComponent("standalone").path) {
            let base = Self.root.appendingPathComponent("_base")
            for name in try fileManager.contentsOfDirectory(atPath: base.path) {
                files[name] = base.appendingPathComponent(name)
            }
        }
        for name in try fileManager.contentsOfDirectory(atPath: directory.path) where name.hasSuffix(".yaml") {
            files[name] = directory.appendingPathComponent(name)
        }
        return try files.keys.sorted().map { name in
            ContractLoader.Source(path: name, bytes: Array(try Data(contentsOf: files[name]!)))
        }
    }
}
