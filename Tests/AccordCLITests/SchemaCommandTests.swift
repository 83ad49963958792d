import AccordContract
import AccordMocksFormat
import AccordTesting
import Foundation
import Testing

/// `accord schema`: the committed schemas are what the loaders' key tables make, and
/// the tables hold every key the loaders take.
@Suite struct SchemaCommandTests {
    @Test(arguments: [("contracts", "contract"), ("mocks", "mocks")])
    func theCommittedSchemaIsWhatTheKeyTablesMake(_ format: String, _ file: String) throws {
        let path = Repository.root.appendingPathComponent("schemas/\(file).schema.json").path
        let run = CommandRun(["schema", format])
        #expect(run.status == 0)
        #expect(run.output == (try String(contentsOfFile: path, encoding: .utf8)), "run 'accord schema \(format) --output schemas/\(file).schema.json'")
        #expect(CommandRun(["schema", format, "--output", path, "--check"]).status == 0)
    }

    @Test func aDriftedFileFailsTheCheck() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("accord-schema-\(UUID().uuidString).json").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(CommandRun(["schema", "mocks", "--output", path]).status == 0)
        try Data("{}\n".utf8).write(to: URL(fileURLWithPath: path))
        let check = CommandRun(["schema", "mocks", "--output", path, "--check"])
        #expect(check.status == 1)
        #expect(check.error == "error: \(path) is not the schema this accord writes; run 'accord schema mocks --output \(path)'\n")
        #expect(CommandRun(["schema", "openapi"]).status == 2)
    }

    /// Each effect action's keys, which the effect loader takes by action, are keys of the table.
    @Test func theEffectTableHoldsEveryKeyOfEveryAction() {
        let table = Set(MocksKeys.effect.names)
        for keys in EffectLoader.keys.values { #expect(Set(keys).isSubset(of: table), "\(keys)") }
        #expect(Set(EffectLoader.actionKeys + ["count"]).isSubset(of: table))
    }
}
