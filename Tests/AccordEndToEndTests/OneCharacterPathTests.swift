import AccordTesting
import Foundation
import Testing

/// Paths of one character, which Foundation's path arithmetic trapped on (Linux): the real
/// `accord` run in a directory where the contracts are `c` and the OpenAPI document is `a`.
@Suite struct OneCharacterPathTests {
    static let accord = ServerProcess.executable.path

    private func scratch() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-short-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    private func shell(_ command: String, in directory: String) throws -> ExternalCommand.Outcome {
        try ExternalCommand.run("/bin/sh", ["-c", "cd \"$0\" && " + command, directory])
    }

    @Test func generateTakesContractsNamedByOneCharacterAndFindsTheMocksBesideThem() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.copyItem(atPath: Repository.plainContracts, toPath: directory + "/c")
        try FileManager.default.copyItem(atPath: Repository.plainMocks, toPath: directory + "/mocks")
        let generated = try shell("\"\(Self.accord)\" generate --contracts c --output o", in: directory)
        #expect(generated.status == 0, "\(generated.errors)")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory + "/o")
        #expect(files.contains("Fixtures"), "the mocks beside c/ were found: \(files.sorted())")
    }

    @Test func importFollowsRelativeReferencesOfADocumentNamedByOneCharacter() throws {
        let directory = try scratch()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let corpus = Repository.root.appendingPathComponent("Tests/AccordImportTests/Corpus/multi-file").path
        for entry in try FileManager.default.contentsOfDirectory(atPath: corpus) {
            try FileManager.default.copyItem(atPath: corpus + "/" + entry, toPath: directory + "/" + (entry == "openapi.yaml" ? "a" : entry))
        }
        let imported = try shell("\"\(Self.accord)\" import openapi a --output x", in: directory)
        #expect(imported.status == 0, "\(imported.errors)")
        #expect(FileManager.default.fileExists(atPath: directory + "/x/contracts/service.yaml"))
    }
}
