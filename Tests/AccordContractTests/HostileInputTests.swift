import AccordContract
import AccordDiagnostics
import AccordValidation
import Foundation
import Testing

/// Input meant to crash, hang or exhaust the loader is refused with a located error.
@Suite struct HostileInputTests {
    private func lint(_ text: String, file: String = "evil.yaml") -> [String] {
        lint(bytes: Array(text.utf8), file: file)
    }

    private func lint(bytes: [UInt8], file: String = "evil.yaml") -> [String] {
        let outcome = ContractLoader().load([ContractLoader.Source(path: file, bytes: bytes)], directory: "contracts")
        return ContractLint.check(outcome).diagnostics.map(\.description)
    }

    @Test func fiftyMegabyteScalar() {
        let text = "domain: shop\ndescription: " + String(repeating: "a", count: 50 * 1024 * 1024) + "\n"
        #expect(lint(text) == ["evil.yaml:2:14: error: scalar of 52428800 bytes exceeds the limit of 1048576 bytes"])
    }

    @Test func tenThousandDeepFlowNesting() {
        let text = "domain: shop\ntypes:\n  Deep: " + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "\n"
        #expect(lint(text) == ["evil.yaml:3:263: error: nesting deeper than 256 levels"])
    }

    @Test func tenThousandDeepBlockNesting() {
        let lines = (0..<10_000).map { String(repeating: " ", count: $0) + "k:" }
        let text = "domain: shop\ntypes:\n" + lines.map { "  " + $0 }.joined(separator: "\n") + " x\n"
        #expect(lint(text) == ["evil.yaml:258:258: error: nesting deeper than 256 levels"])
    }

    @Test func aliasBomb() {
        var text = "domain: shop\nx0: &x0 [lol, lol, lol, lol, lol, lol, lol, lol, lol, lol]\n"
        for level in 1...9 {
            text += "x\(level): &x\(level) [" + Array(repeating: "*x\(level - 1)", count: 10).joined(separator: ", ") + "]\n"
        }
        #expect(lint(text) == [
            "evil.yaml:8:10: error: document expands to more than 2000000 nodes (aliases count once per use); refusing it",
        ])
    }

    @Test func invalidUTF8InTheFirstLine() {
        #expect(lint(bytes: [0x64, 0x6F, 0xC0, 0x80, 0x3A, 0x20, 0x78]) == [
            "evil.yaml:1:3: error: invalid UTF-8: invalid length of a UTF-8 sequence at byte 2",
        ])
    }

    @Test func binaryGarbage() {
        let garbage: [UInt8] = (0..<4096).map { UInt8(truncatingIfNeeded: $0 &* 2_654_435_761 >> 13) }
        let messages = lint(bytes: garbage)
        #expect(messages.count == 1)
        #expect(messages.first?.hasPrefix("evil.yaml:") == true)
    }

    @Test func directoryWithNoContracts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-empty-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("notes".utf8).write(to: directory.appendingPathComponent("README.md"))
        let outcome = ContractLoader().load(directory: directory.path)
        #expect(outcome.diagnostics.map(\.description) == ["\(directory.path): error: no contract files (*.yaml, *.yml) in '\(directory.path)'"])
        #expect(outcome.contract == nil)
    }

    @Test func missingDirectory() {
        let outcome = ContractLoader().load(directory: "/nonexistent/contracts")
        #expect(outcome.diagnostics.map(\.description) == ["/nonexistent/contracts: error: contracts directory '/nonexistent/contracts' does not exist"])
    }
}
