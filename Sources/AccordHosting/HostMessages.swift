import AccordDiagnostics

/// Where a running server says what it does: its banner, reloads and stop go to the
/// output, problems and diagnostics to the error stream (a command's standard output and
/// standard error; buffers in tests).
public struct HostMessages: Sendable {
    private let output: @Sendable (String) -> Void
    private let error: @Sendable (String) -> Void

    /// - Parameters:
    ///   - output: takes text for the output, newlines included.
    ///   - error: takes text for the error stream, newlines included.
    public init(output: @escaping @Sendable (String) -> Void, error: @escaping @Sendable (String) -> Void) {
        self.output = output
        self.error = error
    }

    /// One line of output.
    func say(_ line: String) { output(line + "\n") }

    /// One line on the error stream.
    func warn(_ line: String) { error(line + "\n") }

    /// Diagnostics as `path:line:col: error: message`, each with its source line.
    func report(_ diagnostics: [Diagnostic]) {
        var renderer = DiagnosticRenderer()
        for diagnostic in diagnostics { error(renderer.render(diagnostic)) }
    }
}

/// Why a server did not run; its messages have said what went wrong.
public enum HostFailure: Error, Sendable {
    /// A setting the server cannot take: an injection rule, a scenario name (exit status 2).
    case setting
    /// The contracts, a file or the socket: the server could not start (exit status 1).
    case startup

    /// The exit status a command gives for it.
    public var exitStatus: Int32 {
        switch self {
        case .setting: 2
        case .startup: 1
        }
    }
}
