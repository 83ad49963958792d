/// One command of a command-line tool: `accord lint`, or `accord-generate` alone.
public protocol Subcommand: Sendable {
    var name: String { get }
    var abstract: String { get }
    var options: [Arguments.Option] { get }
    /// How the usage names the arguments that are not options (`FILE…`); nil when there are none.
    var positionals: String? { get }
    func run(_ arguments: Arguments, console: Console) -> Int32
}

extension Subcommand {
    public var positionals: String? { nil }

    /// Runs the command with `arguments` (what follows its name): its help for `--help`,
    /// a usage error (status 2) for arguments it does not take, else its own status.
    public func run(_ arguments: [String], console: Console, invokedAs program: String? = nil) -> Int32 {
        let help = help(invokedAs: program ?? "accord \(name)")
        if arguments.contains("--help") || arguments.contains("-h") {
            console.print(help)
            return 0
        }
        do {
            return run(try Arguments(arguments, options: options, takesPositionals: positionals != nil), console: console)
        } catch {
            console.printError("error: \(error.message)\n\n\(help)")
            return 2
        }
    }

    /// The command's help, as `accord NAME --help` prints it.
    public var help: String { help(invokedAs: "accord \(name)") }

    /// The help with `program` in its usage line (`accord generate`, `accord-generate`).
    public func help(invokedAs program: String) -> String {
        let width = (options.map(\.usage.count).max() ?? 0) + 2
        let lines = options.map { "  " + $0.usage.padding(toLength: width, withPad: " ", startingAt: 0) + $0.help }
        return """
        OVERVIEW: \(abstract)

        USAGE: \(program) \(options.map { "[\($0.usage)]" }.joined(separator: " "))\(positionals.map { " " + $0 } ?? "")

        OPTIONS:
        \(lines.joined(separator: "\n"))
          --help\(String(repeating: " ", count: max(1, width - 6)))Show help for this command.
        """
    }
}
