import AccordFiles
import AccordMock
import AccordMockState
import Foundation
import Testing

/// Every file the server writes (snapshots, reports, OpenAPI documents, recorded
/// fixtures, keys) is written whole or not at all, through a temporary name no
/// planted link can take over.
@Suite struct AtomicFileTests {
    static func directory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("accord-atomic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    @Test func anAtomicWriteReplacesAnExistingFile() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("report.xml").path
        try AtomicFile.write(Array("first".utf8), to: path)
        try AtomicFile.write(Array("second".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write([1], to: path + "/not/a/dir") }
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.path) == ["report.xml"], "no temporary file is left")
    }

    @Test func plantedLinksAreNeverFollowed() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        // The names a writer used to take (`.NAME.PID.tmp`, `NAME.tmp`), planted as links to the victim.
        let path = folder.appendingPathComponent("state.json").path
        for planted in [".state.json.\(getpid()).tmp", "state.json.tmp", ".key.pem.\(getpid()).tmp", "key.pem.tmp"] {
            try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent(planted).path, withDestinationPath: victim)
        }
        try AtomicFile.write(Array("{}".utf8), to: path)
        try AtomicFile.write(Array("KEY".utf8), to: folder.appendingPathComponent("key.pem").path, private: true)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        // A link at the target itself is replaced by the file, its target untouched.
        let linked = folder.appendingPathComponent("linked.json").path
        try FileManager.default.createSymbolicLink(atPath: linked, withDestinationPath: victim)
        try AtomicFile.write(Array("new".utf8), to: linked)
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
        #expect(try FileManager.default.attributesOfItem(atPath: linked)[.type] as? FileAttributeType == .typeRegular)
        #expect(try String(contentsOfFile: linked, encoding: .utf8) == "new")
        let mode = try FileManager.default.attributesOfItem(atPath: folder.appendingPathComponent("key.pem").path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
    }

    @Test func theRecordedJournalIsNotOpenedThroughALink() throws {
        let folder = try Self.directory()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim").path
        try Data("precious".utf8).write(to: URL(fileURLWithPath: victim))
        let link = folder.appendingPathComponent("journal.jsonl").path
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: victim)
        #expect(throws: JournalRecorder.OpenError.self) { try JournalRecorder(path: link, report: { _ in }) }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious")
    }
}
