import AccordCommandLine
import AccordFiles
import AccordReport
import Foundation

/// `--report FILE`, `--report-format junit|json` and `--fail-on LIST`, shared by the
/// commands that write a report.
struct ReportOptions {
    static let options = [
        Arguments.Option(name: "report", valueName: "FILE", help: "Write the run's violations and coverage to FILE."),
        Arguments.Option(name: "report-format", valueName: "FORMAT", help: "The report as 'junit' or 'json' (default: junit)."),
    ]

    var path: String?
    var format: ContractReport.Format
    var failOn: Set<ContractReport.FailCondition>

    init(_ arguments: Arguments) throws(UsageError) {
        let formatName = arguments["report-format"] ?? "junit"
        guard let format = ContractReport.Format(rawValue: formatName) else {
            throw UsageError("'--report-format' is 'junit' or 'json', found '\(formatName)'")
        }
        var failOn: Set<ContractReport.FailCondition> = []
        for list in arguments.all("fail-on") {
            for name in list.split(separator: ",") {
                guard let condition = ContractReport.FailCondition(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                    throw UsageError("'--fail-on' takes 'violations', 'uncovered' and 'flows', found '\(name)'")
                }
                failOn.insert(condition)
            }
        }
        path = arguments["report"]
        self.format = format
        self.failOn = failOn
    }

    /// Prints the run's summary, writes `--report` and gives the exit status `--fail-on` asks for.
    func finish(_ report: ContractReport, command: String, console: Console) -> Int32 {
        console.print("accord \(command): \(report.summary)")
        if let path {
            let bytes = report.rendered(as: format, failsUncovered: failOn.contains(.uncovered))
            do {
                try AtomicFile.write(bytes, to: path)
                console.print("accord \(command): report written to \(path)")
            } catch {
                console.printError("error: \(error)")
                return 1
            }
        }
        let met = report.met(failOn)
        guard met.isEmpty else {
            console.printError("accord \(command): failing: \(met.map(\.rawValue).joined(separator: " and ")) (--fail-on)")
            return 1
        }
        return 0
    }
}
