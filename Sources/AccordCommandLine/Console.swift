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

    /// `text` and a newline on standard output.
    public func print(_ text: String) { writeOutput(text + "\n") }
    /// `text` and a newline on standard error.
    public func printError(_ text: String) { writeError(text + "\n") }
    public func write(_ text: String) { writeOutput(text) }
    public func writeError(_ text: String) { writeError(text) }
}
