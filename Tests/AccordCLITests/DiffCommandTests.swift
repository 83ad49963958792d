import AccordCLI
import AccordJSON
import AccordSync
import AccordTesting
import Foundation
import Testing

/// `accord diff` on a copy of the repository's contracts with typical edits, as two
/// directories and as a git revision against the working tree.
@Suite struct DiffCommandTests {
    private func run(_ arguments: [String]) -> (status: Int32, output: String, error: String) {
        let run = CommandRun(arguments)
        return (run.status, run.output, run.error)
    }

    /// The repository's contracts copied to `directory`, then edited: a request
    /// member added, a code dropped, an endpoint renamed, a response member removed,
    /// a request enum value added, a response enum value added.
    private func editedCopy(in directory: URL) throws {
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Repository.contracts), to: directory)
        func edit(_ file: String, _ change: (inout String) -> Void) throws {
            let url = directory.appendingPathComponent(file)
            var text = try String(contentsOf: url, encoding: .utf8)
            let original = text
            change(&text)
            #expect(text != original, "the edit of \(file) found nothing to change")
            try text.write(to: url, atomically: true, encoding: .utf8)
        }
        try edit("signal.yaml") { text in
            text = text.replacingOccurrences(of: "      is_flash: bool\n    response: Signal\n    codes: [3008, 3002]",
                                             with: "      is_flash: bool\n      topic_id: string\n    response: Signal\n    codes: [3008]")
            text = text.replacingOccurrences(of: "  signal.quota:\n    route: GET /signals/quota", with: "  signal.quota-today:\n    route: GET /signals/quota/today")
            text = text.replacingOccurrences(of: "    enum: [active, expired, deleted]\n", with: "    enum: [active, expired, deleted, archived]\n")
        }
        try edit("auth.yaml") { text in
            let member = "      nickname: {type: string, min_length: 2, max_length: 20}\n"
            guard let type = text.range(of: "  LoginUser:"), let range = text.range(of: member, range: type.upperBound..<text.endIndex) else { return }
            text.removeSubrange(range)
        }
        try edit("service.yaml") { $0 = $0.replacingOccurrences(of: "  X-OS: ios | android", with: "  X-OS: ios | android | harmony") }
    }

    @Test func classifiesEachChangeWithBothPositions() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-diff-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try editedCopy(in: directory)
        let (old, new) = (Repository.contracts, directory.path)
        let (status, output, error) = run(["diff", old, new])
        #expect(error == "")
        #expect(status == 1)
        #expect(output == """
        \(new)/service.yaml:34:25: breaking (backend): service request /headers/X-OS: enum value 'harmony' added [old: \(old)/service.yaml:34:9]
        \(old)/signal.yaml:219:3: breaking (app): endpoint 'signal.quota' (GET /signals/quota) removed
        \(new)/auth.yaml:25:5: breaking (app): type 'LoginUser' (responses) /nickname: member removed [old: \(old)/auth.yaml:28:7]
        \(new)/signal.yaml:34:38: compatible: type 'SignalStatus' (responses): enum value 'archived' added (safe for apps Accord generates: a value they do not know decodes as .unknown; a hand-written strict decoder fails) [old: \(old)/signal.yaml:34:5]
        \(new)/signal.yaml:106:3: breaking (backend): 'signal.publish' no longer declares business code 3002 [old: \(old)/signal.yaml:106:3]
        \(new)/signal.yaml:115:7: breaking (app): 'signal.publish' request /body/topic_id: new required member [old: \(old)/signal.yaml:111:7]
        \(new)/signal.yaml:220:3: compatible: endpoint 'signal.quota-today' (GET /signals/quota/today) added
        5 breaking, 2 compatible changes

        """)
        let json = run(["diff", old, new, "--format", "json"])
        let parsed = try JSONReader.read(Array(json.output.utf8))
        #expect(parsed["breaking"] == .int(5) && parsed["compatible"] == .int(2))
        #expect(parsed.value(at: "/changes/2/breaks") == .array([.string("app")]))
        #expect(parsed.value(at: "/changes/2/old") == .string("\(old)/auth.yaml:28:7"))
        #expect(run(["diff", old, old]).output == "0 breaking, 0 compatible changes\n")
    }

    /// A plain API's table is compared entry by entry (a status's entries by their `when`),
    /// and so are its error media type and its kind of auth.
    @Test func aPlainAPIsErrorsAndAuthAreCompared() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-diff-plain-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Repository.plainContracts), to: directory)
        let service = directory.appendingPathComponent("service.yaml")
        var text = try String(contentsOf: service, encoding: .utf8)
        text = text.replacingOccurrences(of: "  media_type: application/problem+json\n", with: "  media_type: application/json\n")
            .replacingOccurrences(of: "    - {name: refresh-invalid, msg: Session ended, when: {type: 'https://notes.example.com/problems/refresh-invalid'}, flow: logout}\n",
                                  with: "")
            .replacingOccurrences(of: "  404: {name: not-found, msg: Not found}", with: "  404: {name: not-found, msg: Not found, flow: alert}")
        try text.write(to: service, atomically: true, encoding: .utf8)
        let (old, new) = (Repository.plainContracts, directory.path)
        let (status, output, _) = run(["diff", old, new])
        #expect(status == 1)
        #expect(output == """
        \(new)/service.yaml:5:3: breaking (app, backend): errors are now application/json, were application/problem+json [old: \(old)/service.yaml:5:3]
        \(old)/service.yaml:28:7: breaking (backend): business code 401 (refresh-invalid) removed from the table
        \(new)/service.yaml:30:3: breaking (app): business code 404 flow changed from none to alert [old: \(old)/service.yaml:31:3]
        3 breaking, 0 compatible changes

        """)
        let keyed = try Repository.plainContracts(auth: "  api_key: {header: X-API-Key, keys: [k]}",
                                                  codes: "  401: {name: unauthorized}\n  403: {name: banned, data: BanProblem}\n  404: {name: not-found}\n  429: {name: quota}")
        let auth = run(["diff", old, keyed]).output
        #expect(auth.contains(": breaking (app, backend): auth changed from bearer tokens in Authorization to an API key in the header 'X-API-Key' [old: "))
        #expect(auth.contains(": breaking (app): tokens are no longer refreshed ('session.refresh' is not the refresh endpoint) [old: "))
    }

    @Test func readsTheOldVersionFromAGitRevision() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("accord-diff-git-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        let contracts = root.appendingPathComponent("contracts")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: Repository.contracts), to: contracts)
        func git(_ arguments: String...) throws {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["git", "-C", root.path, "-c", "user.name=t", "-c", "user.email=t@example.com"] + arguments
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            #expect(process.terminationStatus == 0, "git \(arguments)")
        }
        try git("init", "-q")
        try git("add", ".")
        try git("commit", "-qm", "contracts")
        try FileManager.default.removeItem(at: contracts)
        try editedCopy(in: contracts)
        let (status, output, _) = run(["diff", "--git", "HEAD", "--contracts", contracts.path])
        #expect(status == 1)
        #expect(output.contains("\(contracts.path)/signal.yaml:115:7: breaking (app): 'signal.publish' request /body/topic_id: new required member "
            + "[old: HEAD:\(contracts.path)/signal.yaml:111:7]"))
        #expect(output.hasSuffix("5 breaking, 2 compatible changes\n"))
        let unknown = run(["diff", "--git", "no-such-revision", "--contracts", contracts.path])
        #expect(unknown.status == 2)
        #expect(unknown.error.hasPrefix("error: git ls-tree failed: fatal: "))
        let neither = run(["diff"])
        #expect(neither.status == 2 && neither.error.hasPrefix("error: give OLD_DIR NEW_DIR, or --git REV"))
    }

    /// A team accepts today's breaking changes once; later runs report them as accepted
    /// and fail only on new ones, and say which accepted ones went away.
    @Test func aBaselineAcceptsKnownChangesAndFailsOnNewOnes() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-diff-baseline-\(UUID().uuidString)")
        let baseline = directory.path + ".baseline"
        defer { for path in [directory.path, baseline] { try? FileManager.default.removeItem(atPath: path) } }
        try editedCopy(in: directory)
        let written = run(["diff", Repository.contracts, directory.path, "--write-baseline", baseline])
        #expect(written.status == 0)
        #expect(written.output == "accord diff: 5 breaking changes written to \(baseline) as accepted\n")
        let text = try String(contentsOfFile: baseline, encoding: .utf8)
        #expect(text.split(separator: "\n").dropFirst().map(String.init) == [
            "service request /headers/X-OS: enum value 'harmony' added", "endpoint 'signal.quota' (GET /signals/quota) removed",
            "type 'LoginUser' (responses) /nickname: member removed", "'signal.publish' no longer declares business code 3002",
            "'signal.publish' request /body/topic_id: new required member",
        ])
        let accepted = run(["diff", Repository.contracts, directory.path, "--baseline", baseline])
        #expect(accepted.status == 0)
        #expect(accepted.output.contains(": accepted (baseline), breaking (app): 'signal.publish' request /body/topic_id: new required member [old: "))
        #expect(accepted.output.hasSuffix("\n0 breaking, 5 accepted by the baseline, 2 compatible changes\n"))
        // An entry for a change the diff does not have, and a new change: the new one fails, the stale entry is noted.
        try Data((text + "service request /headers/X-OS: enum value 'fuchsia' added\n").utf8).write(to: URL(fileURLWithPath: baseline))
        let service = directory.appendingPathComponent("service.yaml")
        try String(contentsOf: service, encoding: .utf8).replacingOccurrences(of: "  X-Language:", with: "  X-Region: string\n  X-Language:")
            .write(to: service, atomically: true, encoding: .utf8)
        let later = run(["diff", Repository.contracts, directory.path, "--baseline", baseline, "--format", "json"])
        #expect(later.status == 1)
        let parsed = try JSONReader.read(Array(later.output.utf8))
        #expect(parsed["breaking"] == .int(1) && parsed["accepted"] == .int(5))
        #expect(later.error == "note: the baseline accepts a change this diff no longer has (remove it): service request /headers/X-OS: enum value 'fuchsia' added\n")
    }
}
