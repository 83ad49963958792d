import AccordCLI
import AccordCommandLine
import AccordSync

/// What one in-process run of `accord` gave.
struct CommandRun {
    var status: Int32
    var output: String
    var error: String

    /// Runs `accord` with `arguments` in-process, its standard output and error captured.
    init(_ arguments: [String]) {
        let output = Locked(""), error = Locked("")
        let console = Console(output: { text in output.withLock { $0 += text } }, error: { text in error.withLock { $0 += text } })
        status = AccordCommand.run(arguments, console: console)
        self.output = output.withLock { $0 }
        self.error = error.withLock { $0 }
    }
}
