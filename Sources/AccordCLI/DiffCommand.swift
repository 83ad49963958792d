import AccordContract
import AccordDiagnostics
import AccordDiff
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
        let breaking = changes.filter(\.isBreaking).count
        if format == "json" {
            console.print(JSONWriter.string(.object([
                .init("breaking", .int(breaking)), .init("compatible", .int(changes.count - breaking)),
                .init("changes", .array(changes.map(\.json))),
            ])))
        } else {
            for change in changes { console.print(change.line) }
            console.print("\(breaking) breaking, \(changes.count - breaking) compatible change\(changes.count - breaking == 1 ? "" : "s")")
        }
        return breaking > 0 ? 1 : 0
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
