import AccordContract
import AccordDiagnostics
import AccordMock

/// The `accord` command line: parses the subcommand and runs it.
///
/// ```
/// $ accord lint --contracts contracts
/// contracts/signal.yaml:12:15: error: unknown type 'Sgnal'; did you mean 'Signal'?
///     sender: Sgnal
///             ^
/// 1 error, 0 warnings in 5 files
/// ```
public enum AccordCommand {
    /// The version printed by `accord --version`.
    public static let version = "0.1.0"

    static let subcommands: [Subcommand] = [InitCommand(), ImportCommand(), LintCommand(), ServeCommand(), SignCommand(), GenerateCommand(), CheckRequestsCommand(), SchemaCommand(),
                                           OpenAPICommand(), DiffCommand(), VerifyCommand(), ProxyCommand()]

    /// Runs `arguments` (without the program name) and returns the exit status.
    public static func run(_ arguments: [String], console: Console = .standard) -> Int32 {
        guard let first = arguments.first else {
            console.printError(usage)
            return 2
        }
        switch first {
        case "--help", "-h", "help":
            console.print(usage)
            return 0
        case "--version":
            console.print(version)
            return 0
        default:
            break
        }
        guard let command = subcommands.first(where: { $0.name == first }) else {
            let hint = NameHint.hint(for: first, in: subcommands.map(\.name)).map { "; did you mean '\($0)'?" } ?? ""
            console.printError("error: unknown command '\(first)'\(hint)\n\n\(usage)")
            return 2
        }
        let rest = Array(arguments.dropFirst())
        if rest.contains("--help") || rest.contains("-h") {
            console.print(command.help)
            return 0
        }
        do {
            let parsed = try Arguments(rest, options: command.options, takesPositionals: command.positionals != nil)
            return command.run(parsed, console: console)
        } catch {
            console.printError("error: \(error.message)\n\n\(command.help)")
            return 2
        }
    }

    static var usage: String {
        """
        OVERVIEW: Accord, a toolkit for API contracts of mobile apps.

        USAGE: accord <command> [options]

        COMMANDS:
        \(subcommands.map { "  " + $0.name.padding(toLength: 16, withPad: " ", startingAt: 0) + $0.abstract }.joined(separator: "\n"))

        OPTIONS:
          --help      Show help; 'accord <command> --help' for a command.
          --version   Show the version.
        """
    }
}

/// One `accord` subcommand.
protocol Subcommand: Sendable {
    var name: String { get }
    var abstract: String { get }
    var options: [Arguments.Option] { get }
    /// How the usage names the arguments that are not options (`FILE…`); nil when there are none.
    var positionals: String? { get }
    func run(_ arguments: Arguments, console: Console) -> Int32
}

extension Subcommand {
    var positionals: String? { nil }

    /// The contract in `arguments["contracts"]` (default `contracts`), loaded and checked
    /// as every command loads it (``MockProject/load(contracts:mocks:)``), its problems
    /// printed; nil when it has errors.
    func loadContract(_ arguments: Arguments, console: Console) -> Contract? {
        let directory = arguments["contracts"] ?? "contracts"
        let outcome = MockProject.load(contracts: directory, mocks: nil)
        var renderer = DiagnosticRenderer()
        for diagnostic in outcome.diagnostics { console.writeError(renderer.render(diagnostic)) }
        guard let contract = outcome.project?.contract else {
            console.printError("error: the contracts in \(directory) have errors")
            return nil
        }
        return contract
    }

    var help: String {
        let width = (options.map(\.usage.count).max() ?? 0) + 2
        let lines = options.map { "  " + $0.usage.padding(toLength: width, withPad: " ", startingAt: 0) + $0.help }
        return """
        OVERVIEW: \(abstract)

        USAGE: accord \(name) \(options.map { "[\($0.usage)]" }.joined(separator: " "))\(positionals.map { " " + $0 } ?? "")

        OPTIONS:
        \(lines.joined(separator: "\n"))
          --help\(String(repeating: " ", count: max(1, width - 6)))Show help for this command.
        """
    }
}
