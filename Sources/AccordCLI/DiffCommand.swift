import AccordCommandLine
import AccordContract
import AccordDiagnostics
import AccordDiff
import AccordFiles
import AccordJSON
import Foundation

/// `accord diff OLD NEW` or `accord diff --git REV`: what changed between two versions
/// of the contracts, classified breaking (for apps, for backends) or compatible.
struct DiffCommand: Subcommand {
    let name = "diff"
    let abstract = "Compare two versions of the contracts and report breaking changes (exit 1 if any)."
    let positionals: String? = "[OLD_DIR NEW_DIR]"
    let options = [
        Arguments.Option(name: "git", valueName: "REV", help: "Compare the contracts at git revision REV with the working tree."),
        Arguments.Option(name: "contracts", valueName: "DIR", help: "With --git: the contracts directory (default: contracts)."),
        Arguments.Option(name: "format", valueName: "FORMAT", help: "'text' or 'json' (default: text)."),
        Arguments.Option(name: "baseline", valueName: "FILE", help: "Breaking changes the team accepted (one message a line): reported, not failed on."),
        Arguments.Option(name: "write-baseline", valueName: "FILE", help: "Write this run's breaking changes to FILE as the baseline, and exit 0."),
    ]

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        let format = arguments["format"] ?? "text"
        guard format == "text" || format == "json" else {
            console.printError("error: '--format' is 'text' or 'json', found '\(format)'\n\n\(help)")
            return 2
        }
        let old: ContractLoader.Outcome
        let newDirectory: String
        switch (arguments["git"], arguments.positionals.count) {
        case (let revision?, 0):
            newDirectory = arguments["contracts"] ?? "contracts"
            do {
                old = ContractLoader().load(try GitRevision(revision).yamlFiles(in: newDirectory), directory: "\(revision):\(newDirectory)")
            } catch {
                console.printError("error: \(error)")
                return 2
            }
        case (nil, 2):
            old = ContractLoader().load(directory: arguments.positionals[0])
            newDirectory = arguments.positionals[1]
        default:
            console.printError("error: give OLD_DIR NEW_DIR, or --git REV\n\n\(help)")
            return 2
        }
        let new = ContractLoader().load(directory: newDirectory)
        var renderer = DiagnosticRenderer()
        for outcome in [old, new] {
            for diagnostic in outcome.diagnostics where diagnostic.severity == .error { console.writeError(renderer.render(diagnostic)) }
        }
        guard let before = old.contract, let after = new.contract,
              !(old.diagnostics + new.diagnostics).contains(where: { $0.severity == .error }) else {
            console.printError("error: cannot compare contracts that have errors")
            return 2
        }
        let changes = ContractDiff(old: before, new: after).changes()
        if let path = arguments["write-baseline"] {
            return writeBaseline(changes.filter(\.isBreaking), to: path, console: console)
        }
        var baseline = DiffBaseline()
        if let path = arguments["baseline"] {
            do throws(DiffBaseline.Failure) {
                baseline = try DiffBaseline(path: path)
            } catch {
                console.printError("error: \(error.description)")
                return 2
            }
        }
        return report(changes, baseline: baseline, json: format == "json", console: console)
    }

    /// Prints every change and the counts; 1 when a breaking change is not in the baseline.
    private func report(_ changes: [ContractChange], baseline: DiffBaseline, json: Bool, console: Console) -> Int32 {
        let accepted = changes.filter { $0.isBreaking && baseline.accepts($0) }
        let breaking = changes.filter(\.isBreaking).count - accepted.count
        let compatible = changes.count - breaking - accepted.count
        if json {
            console.print(JSONWriter.string(.object([
                .init("breaking", .int(breaking)), .init("accepted", .int(accepted.count)), .init("compatible", .int(compatible)),
                .init("changes", .array(changes.map { change in
                    guard case .object(let members) = change.json, accepted.contains(change) else { return change.json }
                    return .object(members + [.init("accepted", .bool(true))])
                })),
            ])))
        } else {
            for change in changes { console.print(accepted.contains(change) ? change.line(prefix: "accepted (baseline), ") : change.line) }
            let acceptedText = baseline.isEmpty ? "" : ", \(accepted.count) accepted by the baseline"
            console.print("\(breaking) breaking\(acceptedText), \(compatible) compatible change\(compatible == 1 ? "" : "s")")
        }
        for message in baseline.unseen(in: changes) {
            console.printError("note: the baseline accepts a change this diff no longer has (remove it): \(message)")
        }
        return breaking > 0 ? 1 : 0
    }

    private func writeBaseline(_ changes: [ContractChange], to path: String, console: Console) -> Int32 {
        do {
            try AtomicFile.write(Array(DiffBaseline.text(of: changes).utf8), to: path)
        } catch {
            console.printError("error: cannot write \(path): \(error)")
            return 2
        }
        console.print("accord diff: \(changes.count) breaking change\(changes.count == 1 ? "" : "s") written to \(path) as accepted")
        return 0
    }
}

/// Breaking changes a team accepted, by message (`signal.publish request /body/topic:
/// new required member`), so that later runs report them without failing; positions
/// are left out, since they move with every edit around them.
struct DiffBaseline {
    struct Failure: Error {
        var description: String
    }

    private var messages: Set<String> = []

    init() {}

    /// Reads the file: one message a line; blank lines and lines starting with `#` are skipped.
    init(path: String) throws(Failure) {
        guard let data = FileManager.default.contents(atPath: path) else { throw Failure(description: "cannot read the baseline '\(path)'") }
        messages = Set(String(decoding: data, as: UTF8.self).split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty && !$0.hasPrefix("#") })
    }

    func accepts(_ change: ContractChange) -> Bool { messages.contains(change.message) }

    /// Whether no baseline was given (or it accepts nothing).
    var isEmpty: Bool { messages.isEmpty }

    /// The accepted messages no change of `changes` has, sorted.
    func unseen(in changes: [ContractChange]) -> [String] {
        messages.subtracting(changes.map(\.message)).sorted()
    }

    static func text(of changes: [ContractChange]) -> String {
        "# accord diff --baseline: breaking changes accepted, one message a line (accord diff --write-baseline writes them).\n"
            + changes.map { "\($0.message)\n" }.joined()
    }
}

/// The files of a directory at a git revision, read with `git ls-tree` and `git show`.
struct GitRevision {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    let revision: String

    init(_ revision: String) throws(Failure) {
        guard !revision.hasPrefix("-"), !revision.isEmpty else { throw Failure(description: "'\(revision)' is not a git revision") }
        self.revision = revision
    }

    /// The `.yaml` and `.yml` files directly in `directory` at the revision, named `REV:path`.
    func yamlFiles(in directory: String) throws(Failure) -> [ContractLoader.Source] {
        // Run in the directory itself, so names are relative to it whatever the current directory.
        let listing = try git(["ls-tree", "--name-only", "-z", revision, "--", "."], in: directory)
        let names = listing.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }.filter { $0.hasSuffix(".yaml") || $0.hasSuffix(".yml") }
        guard !names.isEmpty else { throw Failure(description: "no contracts in '\(directory)' at \(revision)") }
        var sources: [ContractLoader.Source] = []
        for name in names.sorted() {
            let path = (directory as NSString).appendingPathComponent(name)
            sources.append(ContractLoader.Source(path: "\(revision):\(path)", bytes: try git(["show", "\(revision):./\(name)"], in: directory)))
        }
        return sources
    }

    private func git(_ arguments: [String], in directory: String) throws(Failure) -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["git", "-C", directory] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do {
            try process.run()
        } catch {
            throw Failure(description: "cannot run git: \(error.localizedDescription)")
        }
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "git \(arguments.first ?? "") failed: \(message.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
        return [UInt8](data)
    }
}
