import AccordHosting
import Foundation

/// Where a command writes: standard output and standard error, or buffers in tests.
public struct Console: Sendable {
    private let writeOutput: @Sendable (String) -> Void
    private let writeError: @Sendable (String) -> Void

    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.writeOutput = output
        self.writeError = error
    }

    /// The process's standard output and standard error.
    public static let standard = Console(
        output: { FileHandle.standardOutput.write(Data($0.utf8)) },
        error: { FileHandle.standardError.write(Data($0.utf8)) }
    )

    func print(_ text: String) { writeOutput(text + "\n") }
    func printError(_ text: String) { writeError(text + "\n") }
    func write(_ text: String) { writeOutput(text) }
    func writeError(_ text: String) { writeError(text) }

    /// The console as a running server's messages.
    var messages: HostMessages { HostMessages(output: { self.write($0) }, error: { self.writeError($0) }) }
}
