import AccordCommandLine
import AccordContract
import AccordHosting
import AccordMock
import AccordProxy
import AccordReport
import Foundation

/// `accord proxy --upstream URL`: the contracts held to live traffic between the app
/// and a real backend, with injection on top and answers recorded as fixtures.
struct ProxyCommand: Subcommand {
    let name = "proxy"
    let abstract = "Forward to a real backend, checking requests and answers against the contracts."
    let options = [
        Arguments.Option(name: "upstream", valueName: "URL", help: "The real backend, such as https://staging.example.com (required)."),
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "mocks", valueName: "DIR", help: "Where scenarios live, in DIR/scenarios (default: mocks)."),
        Arguments.Option(name: "port", valueName: "N", help: "The port; 0 picks a free one (default: 8081)."),
        Arguments.Option(name: "mode", valueName: "MODE",
                         help: "'report' forwards a request that breaks the contract and reports it; 'strict' refuses it (default: report)."),
        Arguments.Option(name: "annotate", valueName: nil, help: "Add X-Accord-Violations: N to every checked answer."),
        Arguments.Option(name: "upstream-timeout", valueName: "DURATION",
                         help: "The deadline of an upstream answer; for a stream, of each silence (default: 10s, from 100ms to 10m)."),
        Arguments.Option(name: "upstream-ca", valueName: "FILE", help: "PEM CAs to trust for an https upstream instead of the system's."),
        Arguments.Option(name: "max-answer", valueName: "SIZE", help: "The largest upstream answer, such as 16MiB (default: 16MiB, at most 1GiB)."),
        Arguments.Option(name: "upstream-workers", valueName: "N", help: "Requests talking to the upstream at once, and as many streams besides (default: 32, at most 512)."),
        Arguments.Option(name: "record-fixtures", valueName: "DIR", help: "Write the upstream's answers as fixture files into DIR."),
    ] + ListenerOptions.options

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        runHost(Settings.self, arguments, console: console)
    }
}

extension ProxyCommand {
    /// The command's options, checked.
    struct Settings: HostSettings {
        var host: ProxyHost.Configuration
        var report: ReportOptions

        init(_ arguments: Arguments) throws(UsageError) {
            let options = try ListenerOptions(arguments, defaultPort: 8081)
            report = options.report
            var proxy: Proxy.Configuration
            guard let upstreamText = arguments["upstream"] else { throw UsageError("'--upstream URL' is required: the backend to forward to") }
            do {
                proxy = Proxy.Configuration(upstream: try UpstreamURL(parsing: upstreamText))
            } catch {
                throw UsageError("--upstream \(error)")
            }
            let modeName = arguments["mode"] ?? "report"
            guard let mode = ForwardingGate.Mode(rawValue: modeName) else { throw UsageError("'--mode' is 'report' or 'strict', found '\(modeName)'") }
            proxy.annotates = arguments.has("annotate")
            if let text = arguments["upstream-timeout"] {
                guard let milliseconds = DurationText.milliseconds(text), (100...600_000).contains(milliseconds) else {
                    throw UsageError("'--upstream-timeout' takes a duration from 100ms to 10m such as 500ms or 10s, found '\(text)'")
                }
                proxy.timeoutMilliseconds = milliseconds
            }
            if let path = arguments["upstream-ca"] {
                guard FileManager.default.isReadableFile(atPath: path) else { throw UsageError("'--upstream-ca': cannot read '\(path)'") }
                proxy.caFile = path
            }
            if let text = arguments["max-answer"] {
                guard let bytes = ByteSizeText.bytes(text), bytes >= 1_024 else {
                    throw UsageError("'--max-answer' takes a size from 1KiB to 1GiB such as 16MiB, found '\(text)'")
                }
                proxy.maxAnswerBytes = bytes
            }
            if let count = try arguments.integer("upstream-workers", in: 1...512) {
                proxy.workers = count
                proxy.streamWorkers = count
            }
            host = ProxyHost.Configuration(contracts: try arguments.directory("contracts", else: "contracts"), mocks: try arguments.directory("mocks", else: "mocks"),
                                           listener: options.listener, proxy: proxy, mode: mode, recordFixtures: arguments["record-fixtures"])
        }

        func run(until stop: StopRequest, messages: HostMessages) throws(HostFailure) -> ContractReport {
            try ProxyHost(host, messages: messages).run(until: stop)
        }
    }
}
