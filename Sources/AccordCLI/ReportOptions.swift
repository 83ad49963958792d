import AccordReport
import Foundation

/// `--report FILE`, `--report-format junit|json` and `--fail-on LIST`, shared by the
/// commands that write a report.
enum ReportOptions {
    static let options = [
        Arguments.Option(name: "report", valueName: "FILE", help: "Write the run's violations and coverage to FILE."),
        Arguments.Option(name: "report-format", valueName: "FORMAT", help: "The report as 'junit' or 'json' (default: junit)."),
    ]

    static func parse(_ arguments: Arguments) throws(UsageError)
        -> (path: String?, format: ContractReport.Format, failOn: Set<ContractReport.FailCondition>) {
        let formatName = arguments["report-format"] ?? "junit"
        guard let format = ContractReport.Format(rawValue: formatName) else {
            throw UsageError("'--report-format' is 'junit' or 'json', found '\(formatName)'")
        }
        var failOn: Set<ContractReport.FailCondition> = []
        for list in arguments.all("fail-on") {
            for name in list.split(separator: ",") {
                guard let condition = ContractReport.FailCondition(rawValue: name.trimmingCharacters(in: .whitespaces)) else {
                    throw UsageError("'--fail-on' takes 'violations' and 'uncovered', found '\(name)'")
                }
                failOn.insert(condition)
            }
        }
        return (arguments["report"], format, failOn)
    }
}
