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

    @Test func cleanContractsExitZeroWithASummary() throws {
        let (status, output, _) = run(["lint", "--contracts=\(Repository.contracts)", "--mocks", Repository.mocks])
        #expect(status == 0)
        #expect(output == "0 errors, 0 warnings; 66 endpoints, 63 types in 7 domains, 116 fixtures, 6 scenarios, 9 collections\n")
        // The README's tour shows this run.
        #expect(try Repository.document("README.md").contains("$ swift run accord lint\n" + output))
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

    /// A fixture that breaks its schema more than a hundred times gets the first hundred
    /// problems and a last line that says the check stopped there.
    @Test func aFixtureWithMoreThanAHundredProblemsSaysTheCheckStopped() throws {
        let members = (0..<120).map { "k\($0): 1" }.joined(separator: ", ")
        let mocks = try contracts(["signal.yaml": """
            signal.quota:
              - name: crowded
                default: true
                data: {daily_limit: 20, used: 3, resets_at: '{{now}}', \(members)}
            """])
        defer { try? FileManager.default.removeItem(atPath: mocks) }
        let (status, output, _) = run(["lint", "--quiet", "--contracts", Repository.contracts, "--mocks", mocks])
        let lines = output.split(separator: "\n")
        #expect(status == 1)
        // The hundred: the template's own (`'{{now}}'` is no date-time until rendered, not
        // reported) and k0 to k98. Diagnostics come in the order of their positions.
        #expect(lines.count == 100)
        #expect(lines.first == "\(mocks)/signal.yaml:4:11: error: fixture 'crowded' data: the check stops at 100 problems: fix these and run it again to see any more")
        #expect(lines.dropFirst().first?.hasSuffix("error: fixture 'crowded' data /k0: unknown member 'k0'") == true)
        #expect(lines.last?.hasSuffix("error: fixture 'crowded' data /k98: unknown member 'k98'") == true)
    }

    /// `{{seq}}` counts across the server and an insert replaces the record with its key,
    /// so a sequence-made key that a seed already has would silently overwrite the seed.
    @Test func anInsertKeyedWithSeqThatCanMeetASeedIsWarnedAbout() throws {
        let mocks = try contracts([:])
        defer { try? FileManager.default.removeItem(atPath: mocks) }
        try FileManager.default.removeItem(atPath: mocks)
        try FileManager.default.copyItem(atPath: Repository.mocks, toPath: mocks)
        let seeds = mocks + "/collections/learning-sessions.yaml"
        let text = try String(contentsOfFile: seeds, encoding: .utf8)
        try Data(text.replacingOccurrences(of: "{id: ss_01,", with: "{id: ss_2,").utf8).write(to: URL(fileURLWithPath: seeds))
        let (status, output, _) = run(["lint", "--quiet", "--contracts", Repository.contracts, "--mocks", mocks])
        #expect(status == 0)
        #expect(output == "\(mocks)/learning.yaml:62:7: warning: the insert into 'learning-sessions' of fixture 'started' keys records 'ss_{{seq}}', "
                + "which becomes 'ss_2', the key of a seed in \(seeds); {{seq}} counts across the server and an insert replaces the record "
                + "with its key: use a prefix no seed has (such as 'ss_n{{seq}}') or {{uuid}}\n")
    }

    @Test func aDirectoryThatIsNotThereIsAUsageError() {
        let (status, output, error) = run(["lint", "--contracts", Repository.contracts, "--mocks", "/nonexistent/mocks"])
        #expect(status == 2)
        #expect(output == "")
        #expect(error.hasPrefix("error: '--mocks' names '/nonexistent/mocks', which is not a directory\n"))
        #expect(run(["lint", "--contracts", "/nonexistent"]).error.hasPrefix("error: '--contracts' names '/nonexistent', which is not a directory\n"))
    }

    /// `--format json`: one object with every problem where it is and what was loaded.
    @Test func jsonGivesEveryProblemAndTheCounts() throws {
        let directory = try contracts(["shop.yaml": "domain: shop\ntypes:\n  Item: Strng\n"])
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (status, output, _) = run(["lint", "--format", "json", "--contracts", directory])
        #expect(status == 1)
        let json = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any]
        let problems = json?["diagnostics"] as? [[String: Any]] ?? []
        #expect(problems.map { "\($0["file"]!):\($0["line"]!):\($0["column"]!) \($0["severity"]!) \($0["message"]!)" } == [
            "\(directory):0:0 error no service file in '\(directory)': one file must declare 'service:' (its name, base path and codes)",
            "\(directory)/shop.yaml:3:3 warning type 'Item' is declared but no endpoint uses it",
            "\(directory)/shop.yaml:3:9 error unknown type 'Strng'; did you mean 'string'?",
        ])
        #expect(json?["errors"] as? Int == 2 && json?["warnings"] as? Int == 1)
        let clean = run(["lint", "--format=json", "--contracts", Repository.contracts, "--mocks", Repository.mocks])
        #expect(clean.status == 0)
        #expect(clean.output == #"{"diagnostics":[],"errors":0,"warnings":0,"counts":{"endpoints":66,"types":63,"domains":7,"fixtures":116,"#
                + #""scenarios":6,"collections":9}}"# + "\n")
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
        #expect(output.contains("USAGE: accord lint [--contracts DIR] [--mocks DIR] [--quiet] [--format text|json]"))
    }
}
