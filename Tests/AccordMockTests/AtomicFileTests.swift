import AccordMock
import Foundation
import Testing

/// Reports, OpenAPI documents and recorded fixtures are written whole or not at all.
@Suite struct AtomicFileTests {
    @Test func anAtomicWriteReplacesAnExistingFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("accord-atomic-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try AtomicFile.write(Array("first".utf8), to: path)
        try AtomicFile.write(Array("second".utf8), to: path)
        #expect(try String(contentsOfFile: path, encoding: .utf8) == "second")
        #expect(throws: AtomicFile.WriteError.self) { try AtomicFile.write([1], to: path + "/not/a/dir") }
    }
}
