import AccordGenerator
import AccordTesting
import Testing

/// A contract that numbers its codes otherwise gets a client that runs every flow on
/// its own numbers.
@Suite struct RenumberedCodesTests {
    @Test func aContractThatRenumbersItsCodesGetsAClientOfItsOwnNumbers() throws {
        let files = SwiftGenerator(contract: try Repository.renumberedContracts(by: 40_000).contract).files()
        let service = try #require(files.first { $0.path == "Support/Service.swift" }).contents
        #expect(service.contains("static let refreshFailedCode = BusinessCode(rawValue: 41007)"))
        #expect(service.contains("[41002, 41005].contains(code.rawValue)"))
        #expect(service.contains("[41006, 41007].contains(code.rawValue)"))
        #expect(service.contains("[41008].contains(code.rawValue)"))
        #expect(service.contains("[43008].contains(code.rawValue)"))
        // No flow of the client is tied to the conventional numbers: outside comments,
        // none of them is left in any emitted file.
        let stale = files.flatMap { file in
            file.contents.split(separator: "\n").filter { line in
                !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") && line.contains(/\b100[0-8]\b/)
            }.map { "\(file.path): \($0)" }
        }
        #expect(stale == [])
    }
}
