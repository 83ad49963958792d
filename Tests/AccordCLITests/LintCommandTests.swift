import AccordCLI
import AccordSync
import AccordTesting
import Foundation
import Testing

/// `accord lint` run in-process: output, rendering and exit status.
@Suite struct LintCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let run = CommandRun(arguments)
        return (run.status, run.output, run.error)
    }

    private func contracts(_ files: [String: String]) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-lint-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for (name, text) in files {
            try Data(text.utf8).write(to: directory.appendingPathComponent(name))
        }
        return directory.path
    }

    @Test func rendersTheSourceLineAndACaretAndExitsNonZero() throws {
        let directory = try contracts(["shop.yaml": "domain: shop\ntypes:\n  Item: Strng\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, output, _) = run(["lint", "--contracts", directory])
        #expect(status == 1)
        #expect(output == """
        \(directory): error: no service file in '\(directory)': one file must declare 'service:' (its name, base path and codes)
        \(directory)/shop.yaml:3:3: warning: type 'Item' is declared but no endpoint uses it
          Item: Strng
          ^
        \(directory)/shop.yaml:3:9: error: unknown type 'Strng'; did you mean 'string'?
          Item: Strng
                ^
        2 errors, 1 warning

        """)
    }

    @Test func cleanContractsExitZeroWithASummary() {
        let (status, output, _) = run(["lint", "--contracts=\(Repository.contracts)", "--mocks", Repository.mocks])
        #expect(status == 0)
        #expect(output == "0 errors, 0 warnings; 66 endpoints, 63 types in 7 domains, 116 fixtures, 6 scenarios, 9 collections\n")
    }

    /// A fixture without `when` that is not the default answers every request, so the
    /// fixtures after it (and the default) are never reached.
    @Test func aFixtureWithoutWhenThatShadowsOthersIsWarnedAbout() throws {
        let mocks = try contracts(["signal.yaml": """
            signal.quota:
              - name: exhausted
                data: {daily_limit: 20, used: 20, resets_at: '{{now}}'}
              - name: half
                when: {headers: {X-Quota: half}}
                data: {daily_limit: 20, used: 10, resets_at: '{{now}}'}
              - name: plenty
                default: true
                data: {daily_limit: 20, used: 3, resets_at: '{{now}}'}
            """])
        defer { try? FileManager.default.removeItem(atPath: mocks) }
        let (status, output, _) = run(["lint", "--quiet", "--contracts", Repository.contracts, "--mocks", mocks])
        #expect(status == 0)
        #expect(output == "\(mocks)/signal.yaml:2:5: warning: fixture 'exhausted' of 'signal.quota' has no 'when', so it answers every request "
                + "before 'half', 'plenty' (the default); give it a 'when' (or reach it with 'Prefer: example=exhausted')\n")
    }

    @Test func quietPrintsOnlyTheOneLineForm() throws {
        let directory = try contracts(["shop.yaml": "domain: shop\n---\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, output, _) = run(["lint", "--quiet", "--contracts", directory])
        #expect(status == 1)
        #expect(output == "\(directory)/shop.yaml:2:1: error: a contract file holds one YAML document; a second one starts here\n")
    }

    @Test func usageErrorsSuggestAndExitTwo() {
        let (status, _, error) = run(["lint", "--contract", "x"])
        #expect(status == 2)
        #expect(error.hasPrefix("error: unknown option '--contract'; did you mean '--contracts'?\n"))
        let (missing, _, missingError) = run(["lint", "--contracts"])
        #expect(missing == 2)
        #expect(missingError.hasPrefix("error: '--contracts' needs a value: --contracts DIR\n"))
        let (unknown, _, unknownError) = run(["litn"])
        #expect(unknown == 2)
        #expect(unknownError.hasPrefix("error: unknown command 'litn'; did you mean 'lint'?"))
    }

    @Test func helpAndVersion() {
        #expect(run(["--version"]) == (0, AccordCommand.version + "\n", ""))
        let (status, output, _) = run(["lint", "--help"])
        #expect(status == 0)
        #expect(output.contains("USAGE: accord lint [--contracts DIR] [--mocks DIR] [--quiet]"))
    }
}
