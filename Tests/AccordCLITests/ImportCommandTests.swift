import AccordContract
import AccordImport
import AccordTesting
import Foundation
import Testing

/// `accord import openapi` as a user runs it: what it writes, what it says, how it exits.
@Suite struct ImportCommandTests {
    static let corpus = Repository.root.appendingPathComponent("Tests/AccordImportTests/Corpus").path

    private func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-import-cli-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    @Test func aDocumentIsWrittenAsAProjectThatLintsAndIsNotOverwritten() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = CommandRun(["import", "openapi", Self.corpus + "/examples/openapi.yaml", "--output", directory])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.hasSuffix("accord import: 3 operations imported, 0 skipped; 3 schemas typed, 0 free-form; 6 examples kept, 3 refused; "
                                    + "4 warnings; 3 files written to \(directory)\n"), "\(run.error)")
        #expect(run.error.contains("warning: [example-invalid] example 'bad' of 'notes.createNote' does not fit its schema at /title"))
        let lint = CommandRun(["lint", "--contracts", directory + "/contracts", "--mocks", directory + "/mocks"])
        #expect(lint.status == 0, "\(lint.output)\(lint.error)")
        let again = CommandRun(["import", "openapi", Self.corpus + "/examples/openapi.yaml", "--output", directory])
        #expect(again.status == 1)
        #expect(again.error.contains("error: accord import writes nothing over existing files without --force; already there: \(directory)/contracts/service.yaml"))
        #expect(CommandRun(["import", "openapi", Self.corpus + "/examples/openapi.yaml", "--output", directory, "--force"]).status == 0)
    }

    @Test func strictTurnsWarningsIntoAFailure() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(CommandRun(["import", "openapi", Self.corpus + "/operations/openapi.yaml", "--output", directory, "--strict"]).status == 1)
        #expect(CommandRun(["import", "openapi", Self.corpus + "/json-document/openapi.json", "--output", directory + "/json", "--strict"]).status == 0)
    }

    /// `mocks/` is written even for a document with no examples to keep, so the commands
    /// that look for it beside `contracts/` find it.
    @Test func aDocumentWithoutExamplesStillGetsAMocksFolder() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(CommandRun(["import", "openapi", Self.corpus + "/json-document/openapi.json", "--output", directory]).status == 0)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory + "/mocks") == [])
        let generate = CommandRun(["generate", "--contracts", directory + "/contracts", "--mocks", directory + "/mocks", "--output", directory + "/Swift"])
        #expect(generate.status == 0, "\(generate.error)")
    }

    @Test func aDocumentWithWebhooksOnlyImportsNothingAndSaysSo() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let run = CommandRun(["import", "openapi", Self.corpus + "/webhooks-only/openapi.yaml", "--output", directory])
        #expect(run.status == 0)
        #expect(run.error.contains("warning: [webhooks] 1 webhooks not imported"))
        #expect(run.error.hasSuffix("accord import: the document has no operations to import\n"), "\(run.error)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    /// A schema never takes a name the generated client declares itself: every type of the Swift generated for the
    /// repository's contracts and the plain project, but the models, is one the import renames (`Envelope` → `EnvelopeModel`).
    @Test func theImportReservesEveryNameTheGeneratedClientDeclares() throws {
        var declared: Set<String> = []
        for (contracts, mocks) in [(Repository.contracts, Repository.mocks), (Repository.plainContracts, Repository.plainMocks)] {
            let directory = try scratch()
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let run = CommandRun(["generate", "--contracts", contracts, "--mocks", mocks, "--output", directory])
            #expect(run.status == 0, "\(run.error)")
            let support = directory + "/Support"
            for file in try FileManager.default.contentsOfDirectory(atPath: support) {
                let text = try String(contentsOfFile: support + "/" + file, encoding: .utf8)
                for match in text.matches(of: /(?m)^(?:nonisolated )?(?:public |package |internal |private )?(?:nonisolated )?(?:final |indirect )?(?:struct|enum|class|protocol|typealias|actor) ([A-Za-z0-9_]+)/) {
                    declared.insert(String(match.1))
                }
            }
        }
        #expect(declared.count > 20)
        #expect(declared.subtracting(Service.SwiftNaming.reservedTypeNames).sorted() == [])
    }

    @Test func mistakesInTheCallAreUsageErrors() {
        let missing = CommandRun(["import", "openapi"])
        #expect(missing.status == 2)
        #expect(missing.error.hasPrefix("error: 'accord import' takes 'openapi' and the document's path, as in 'accord import openapi openapi.yaml'"))
        #expect(CommandRun(["import", "openapi", "a.yaml", "--domains", "files"]).error.hasPrefix("error: '--domains' is 'tags' or 'paths', found 'files'"))
        #expect(CommandRun(["import", "openapi", "a.yaml", "--envelope", "code,msg"]).status == 2)
        let absent = CommandRun(["import", "openapi", "/nonexistent/openapi.yaml"])
        #expect(absent.status == 1)
        #expect(absent.error.contains("/nonexistent/openapi.yaml:1:1: error: [file-unreadable] cannot read '/nonexistent/openapi.yaml'"), "\(absent.error)")
    }
}
