import AccordCapture
import AccordCommandLine
import AccordContract
import AccordFiles
import AccordReport

/// `accord check-requests FILE…`: captured traffic (HAR 1.2, or an `accord serve
/// --record` journal) judged against the contracts, offline, by the server's own
/// stages; the answers too, where the capture has them.
struct CheckRequestsCommand: Subcommand {
    let name = "check-requests"
    let abstract = "Check captured traffic (HAR files, --record journals) against the contracts."
    let positionals: String? = "FILE…"
    let options = [
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "host", valueName: "HOST", help: "Check only requests to HOST (default: those under the contract's base path)."),
        Arguments.Option(name: "app-secret", valueName: "KEY:SECRET", help: "The secret of app key KEY, if not the contract's; repeatable."),
        Arguments.Option(name: "no-sign", valueName: nil, help: "Do not check X-Sign, timestamps and nonces."),
        Arguments.Option(name: "fail-on", valueName: "LIST", help: "Also exit 1 when an endpoint was never called ('uncovered') or a flow was broken ('flows')."),
        Arguments.Option(name: "check-flows", valueName: nil,
                         help: "Hold each session to the flows of the codes it met, in the order the capture was answered; the report's 'flows'."),
        Arguments.Option(name: "quiet", valueName: nil, help: "Print only the summary."),
    ] + ReportOptions.options

    /// The most problems printed; the report has every endpoint's first ones.
    static let printedLimit = 1_000

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        let files = arguments.positionals
        let reportOptions: ReportOptions
        var secrets: [String: String] = [:]
        do throws(UsageError) {
            guard !files.isEmpty else { throw UsageError("give one or more capture files: a .har file or a --record journal") }
            reportOptions = try ReportOptions(arguments)
            for text in arguments.all("app-secret") {
                guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                    throw UsageError("'--app-secret' takes KEY:SECRET, found '\(text)'")
                }
                secrets[String(text[..<colon])] = String(text[text.index(after: colon)...])
            }
        } catch {
            console.printError("error: \(error.message)\n\n\(help)")
            return 2
        }
        guard var contract = loadContract(arguments, console: console) else { return 2 }
        contract.service.signing.apps.merge(secrets) { $1 }
        var printed = 0
        let quiet = arguments.has("quiet")
        var check = CaptureCheck(contract: contract, host: arguments["host"], verifiesSignatures: !arguments.has("no-sign"),
                                 checksFlows: arguments.has("check-flows")) { line in
            printed += 1
            if !quiet && printed <= Self.printedLimit { console.print(line) }
        }
        var inputError: CaptureError?
        for file in files {
            do {
                try check.check(file: file)
            } catch {
                inputError = error
                break
            }
        }
        var report = ContractReport(title: "accord check-requests", contract: contract, answers: [:], observed: check.observations.snapshot)
        report.flows = check.flowReport()
        for violation in report.flows?.cells.flatMap(\.violations) ?? [] where !quiet { console.print("flow: \(violation)") }
        if !quiet && printed > Self.printedLimit { console.print("… \(printed - Self.printedLimit) more problems (see --report)") }
        var notes = ""
        if check.skipped > 0 { notes += ", \(check.skipped) skipped (other hosts)" }
        if check.unchecked > 0 { notes += ", \(check.unchecked) not checked again (bodies the journal left out)" }
        if check.lost > 0 { notes += ", \(check.lost) not checked (binary parts the capture stored as text, losing their bytes)" }
        console.print("accord check-requests: \(report.summary)\(notes)")
        if let path = reportOptions.path {
            do {
                try AtomicFile.write(report.rendered(as: reportOptions.format, failsUncovered: reportOptions.failOn.contains(.uncovered)), to: path)
            } catch {
                console.printError("error: \(error)")
                return 2
            }
        }
        if let inputError {
            console.printError("error: \(inputError)")
            return 2
        }
        return report.violations > 0 || !report.met(reportOptions.failOn).isEmpty ? 1 : 0
    }
}

