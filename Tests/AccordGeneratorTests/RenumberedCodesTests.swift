import AccordGenerator
import AccordTesting
import Testing

/// A contract that numbers its codes otherwise gets a client that runs every flow on
/// its own numbers.
@Suite struct RenumberedCodesTests {
    @Test func aContractThatRenumbersItsCodesGetsAClientOfItsOwnNumbers() throws {
        let files = SwiftGenerator(contract: try Repository.renumberedContracts(by: 40_000).contract).files()
        let service = try #require(files.first { $0.path == "Support/Service.swift" }).contents
        // The flows name the codes' cases; the cases read the contract's own numbers.
        #expect(service.contains("static let refreshFailedCode = BusinessCode.refreshInvalid"))
        #expect(service.contains("[.tokenExpired, .tokenInvalid].contains(code)"))
        #expect(service.contains("[.forceLogout, .refreshInvalid].contains(code)"))
        #expect(service.contains("case 41002: self = .tokenExpired"))
        #expect(service.contains("case 41007: self = .refreshInvalid"))
        #expect(service.contains("case .quota: return 43008"))
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
