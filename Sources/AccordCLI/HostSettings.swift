import AccordCommandLine
import AccordHosting
import AccordReport

/// The checked options of a command that runs a server until it is stopped (`serve`, `proxy`).
protocol HostSettings {
    init(_ arguments: Arguments) throws(UsageError)
    var report: ReportOptions { get }
    /// Runs the server until `stop` comes, and gives its report.
    func run(until stop: StopRequest, messages: HostMessages) throws(HostFailure) -> ContractReport
}

extension Subcommand {
    /// Takes SIGINT and SIGTERM before any thread starts (every thread started later
    /// leaves them to it), reads the settings, runs the server and writes its report.
    func runHost<Settings: HostSettings>(_ settings: Settings.Type, _ arguments: Arguments, console: Console) -> Int32 {
        let stop = StopRequest()
        let settings: Settings
        do {
            settings = try Settings(arguments)
        } catch {
            console.printError("error: \(error.message)\n\n\(help)")
            return 2
        }
        do {
            let report = try settings.run(until: stop, messages: console.messages)
            return settings.report.finish(report, command: name, console: console)
        } catch {
            return error.exitStatus
        }
    }
}
