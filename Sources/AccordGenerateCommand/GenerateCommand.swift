import AccordCommandLine
import AccordContract
import AccordDiagnostics
import AccordFiles
import AccordGenerator
import AccordMockState
import AccordMocksFormat
import Foundation

/// `accord generate` (and `accord-generate`, the plugins' tool): Swift models, typed
/// endpoints and runtime support from the contracts.
public struct GenerateCommand: Subcommand {
    public let name = "generate"
    public let abstract = "Generate Swift models, typed endpoints, the client and typed fixtures from the contracts and mocks."
    public let options = [
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "output", valueName: "DIR", help: "Where to write the Swift files (required); a path ending in .swift gets every file in one."),
        Arguments.Option(name: "access", valueName: "LEVEL", help: "'public' or 'internal' (default: public)."),
        Arguments.Option(name: "mocks", valueName: "DIR", help: "The fixtures emitted as typed values (default: mocks beside the contracts directory, if it exists)."),
        Arguments.Option(name: "fixtures", valueName: nil, help: "Emit typed fixtures and the in-process mock's routes (the default)."),
        Arguments.Option(name: "no-fixtures", valueName: nil, help: "Emit no typed fixtures."),
        Arguments.Option(name: "namespace", valueName: "NAME",
                         help: "Nest every generated name in the enum NAME (Tongban.API, Tongban.Endpoint), clear of other modules' names; "
                         + "overrides the service file's swift: {namespace: NAME}."),
        Arguments.Option(name: "check", valueName: nil, help: "Write nothing; exit 1 naming every file that differs (for CI)."),
    ]

    public init() {}

    public func run(_ arguments: Arguments, console: Console) -> Int32 {
        guard let outputDirectory = arguments["output"] else {
            console.printError("error: '--output DIR' is required\n\n\(help)")
            return 2
        }
        let accessName = arguments["access"] ?? "public"
        guard let access = SwiftGenerator.Access(rawValue: accessName) else {
            console.printError("error: '--access' is 'public' or 'internal', found '\(accessName)'")
            return 2
        }
        let contractsDirectory: String, mocksDirectory: String
        do {
            contractsDirectory = try arguments.directory("contracts", else: "contracts")
            let beside = (ParentDirectory.of(contractsDirectory) as NSString).appendingPathComponent("mocks")
            mocksDirectory = try arguments.directory("mocks", else: beside)
        } catch {
            console.printError("error: \(error.message)\n\n\(help)")
            return 2
        }
        let fixtures = !arguments.has("no-fixtures")
        let outcome = MockProject.load(contracts: contractsDirectory, mocks: fixtures ? mocksDirectory : nil)
        var renderer = DiagnosticRenderer()
        for diagnostic in outcome.diagnostics { console.writeError(renderer.render(diagnostic)) }
        guard let project = outcome.project else {
            console.printError("error: not generating: the contracts\(fixtures ? " or the fixtures" : "") have errors\(fixtures ? " (or pass --no-fixtures)" : "")")
            return 1
        }
        let contract = project.contract
        let samples = fixtures ? FixtureSamples(contract: contract, fixtures: project.fixtures, collections: project.collections).byEndpoint : [:]
        let generator = SwiftGenerator(contract: contract, access: access, samples: samples, namespace: arguments["namespace"])
        let diagnostics = generator.diagnostics()
        for diagnostic in diagnostics { console.writeError(renderer.render(diagnostic)) }
        guard !diagnostics.containsErrors else {
            console.printError("error: not generating: the contracts ask for what cannot be generated")
            return 1
        }
        let files: [SwiftGenerator.File]
        do {
            files = try generator.output()
        } catch {
            guard let diagnostic = error.diagnostic else {
                console.printError("error: --namespace \(error)")
                return 2
            }
            console.writeError(renderer.render(diagnostic))
            console.printError("error: not generating: the contracts ask for what cannot be generated")
            return 1
        }
        if outputDirectory.hasSuffix(".swift") {
            return writeOne(SwiftGenerator.File.joined(files), to: outputDirectory, check: arguments.has("check"), console: console)
        }
        let output = GeneratedOutput(files: files, directory: outputDirectory)
        return arguments.has("check") ? check(output, console: console) : write(output, console: console)
    }

    /// `--output FILE.swift`: the whole output in one file, written only when it changes
    /// (a build that regenerates it recompiles only then); with `--check`, exit 1 when it differs.
    private func writeOne(_ text: String, to path: String, check: Bool, console: Console) -> Int32 {
        let existing = try? String(contentsOfFile: path, encoding: .utf8)
        if check {
            guard existing == text else {
                console.printError("\(path): error: differs; run 'accord generate --output \(path)'")
                return 1
            }
            console.print("\(path) up to date")
            return 0
        }
        guard existing != text else {
            console.print("\(path) up to date")
            return 0
        }
        do {
            let parent = ParentDirectory.of(path)
            if !parent.isEmpty { try FileManager.default.createDirectory(atPath: parent, withIntermediateDirectories: true) }
            try GeneratedOutput.write(text, to: path)
        } catch {
            console.printError("error: cannot write '\(path)': \(error)")
            return 1
        }
        console.print("\(path): \(text.utf8.count) bytes written")
        return 0
    }

    /// `--check`: every file that differs or is no longer generated, and exit 1 if any.
    private func check(_ output: GeneratedOutput, console: Console) -> Int32 {
        let problems = output.problems
        problems.forEach { console.printError("\(output.directory)/\($0.split(separator: " ").last ?? ""): error: \($0)") }
        guard problems.isEmpty else {
            console.printError("error: \(problems.count) generated file\(problems.count == 1 ? " is" : "s are") stale; "
                               + "run 'accord generate --output \(output.directory)'")
            return 1
        }
        console.print("\(output.files.count) files up to date in \(output.directory)")
        return 0
    }

    private func write(_ output: GeneratedOutput, console: Console) -> Int32 {
        do {
            try output.write()
        } catch {
            console.printError("error: cannot write to '\(output.directory)': \(error)")
            return 1
        }
        console.print("\(output.files.count) files in \(output.directory): \(output.changed.count) written, \(output.stale.count) removed")
        return 0
    }

}
