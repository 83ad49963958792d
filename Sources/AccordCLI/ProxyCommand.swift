import AccordContract
import AccordMock
import AccordMocksFormat
import AccordProxy
import AccordServer
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
        // Before any thread starts, so that every thread leaves SIGINT and SIGTERM to it.
        let stop = Listening.StopRequest()
        let settings: Settings
        do {
            settings = try Settings(arguments)
        } catch {
            console.printError("error: \(error.message)\n\n\(help)")
            return 2
        }
        // Fixtures are the upstream's job here; only the scenarios of `--mocks` are used.
        guard let project = Listening.load(contracts: settings.contracts, mocks: settings.mocks, doing: "proxying", console: console) else {
            return 1
        }
        let contract = project.contract
        guard let journal = Listening.journal(recording: settings.listener.record, console: console) else { return 1 }
        let state = MockState(nonceTTLSeconds: contract.service.signing.nonceTTLSeconds, journal: journal)
        stop.include(state.shutdown)
        guard Listening.prepare(state, options: settings.listener, contract: contract, scenarios: project.scenarios, mocks: settings.mocks,
                                console: console) else { return 2 }
        let engine = MockEngine(contract: contract, fixtures: FixtureSet(), scenarios: project.scenarios, options: settings.listener.mockOptions,
                                state: state)
        var recorder: FixtureRecorder?
        if let directory = settings.recordFixtures {
            do {
                recorder = try FixtureRecorder(directory: directory, contract: contract, upstream: settings.proxy.upstream.description,
                                               report: { console.printError($0) })
            } catch {
                console.printError("error: \(error)")
                return 1
            }
        }
        let proxy: Proxy
        do {
            proxy = try Proxy(configuration: settings.proxy, gate: ForwardingGate(engine: engine, mode: settings.mode), recorder: recorder)
        } catch {
            console.printError("error: \(error)")
            return 1
        }
        let (log, observer) = Listening.accessLog(settings.listener)
        var configuration = settings.listener.server
        configuration.bodyLimit = { method, target in engine.bodyLimits.limit(method: method, target: target) }
        configuration.connectionMemoryBytes = Proxy.connectionMemoryBytes
        let server = HTTPServer(configuration: configuration, replying: { request in proxy.reply(to: request) }, observer: observer,
                                log: { console.printError($0) })
        do {
            try server.start()
        } catch {
            console.printError("error: \(error)")
            return 1
        }
        console.print(banner(contract, port: server.port, settings: settings, recorder: recorder))
        stop.wait()
        let unfinished = server.stop(grace: .milliseconds(1_500))
        proxy.stop()
        log?.close()
        console.print(unfinished == 0 ? "accord proxy: stopped" : "accord proxy: stopped with \(unfinished) request(s) unfinished")
        if let recorder { console.print("accord proxy: \(recorder.count) fixture(s) recorded in \(recorder.directory)") }
        return Listening.finish(engine.report(title: "accord proxy"), command: name, options: settings.listener, console: console)
    }

    private func banner(_ contract: Contract, port: UInt16, settings: Settings, recorder: FixtureRecorder?) -> String {
        let signing = contract.service.signing
        let signingText = settings.listener.mockOptions.verifiesSignatures && signing.isEnabled
            ? "signing checked (\(signing.algorithm.rawValue), window ±\(signing.windowSeconds)s)" : "signing not checked"
        let proxy = settings.proxy
        return """
        accord proxy: http://\(settings.listener.server.host):\(port) -> \(proxy.upstream)
          \(contract.endpoints.count) endpoints, mode \(settings.mode.rawValue)\(proxy.annotates ? ", annotating" : ""), \(signingText)
          limits: body \(settings.listener.server.maxBodyBytes) bytes, answer \(proxy.maxAnswerBytes) bytes, upstream timeout \
        \(proxy.timeoutMilliseconds) ms, \(proxy.workers) upstream workers (\(proxy.queueLimit) waiting at most)
          contracts: \(settings.contracts)\(recorder.map { "  recording fixtures into \($0.directory)" } ?? "")
        """
    }
}

extension ProxyCommand {
    /// The command's options, checked.
    struct Settings {
        var contracts: String
        var mocks: String
        var listener: ListenerOptions
        var proxy: Proxy.Configuration
        var mode: ForwardingGate.Mode
        var recordFixtures: String?

        init(_ arguments: Arguments) throws(UsageError) {
            contracts = arguments["contracts"] ?? "contracts"
            mocks = arguments["mocks"] ?? "mocks"
            listener = try ListenerOptions(arguments, defaultPort: 8081)
            guard let upstreamText = arguments["upstream"] else { throw UsageError("'--upstream URL' is required: the backend to forward to") }
            do {
                proxy = Proxy.Configuration(upstream: try UpstreamURL(parsing: upstreamText))
            } catch {
                throw UsageError("--upstream \(error)")
            }
            let modeName = arguments["mode"] ?? "report"
            guard let mode = ForwardingGate.Mode(rawValue: modeName) else { throw UsageError("'--mode' is 'report' or 'strict', found '\(modeName)'") }
            self.mode = mode
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
            recordFixtures = arguments["record-fixtures"]
        }
    }
}
