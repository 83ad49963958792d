import AccordCommandLine
import AccordGenerateCommand

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
        return command.run(Array(arguments.dropFirst()), console: console)
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
