import AccordContract
import AccordDiagnostics
import AccordMock
import AccordReport
import AccordServer
import Dispatch
import Foundation

/// `accord serve`: the mock backend on a contracts and a fixtures directory.
struct ServeCommand: Subcommand {
    let name = "serve"
    let abstract = "Serve a mock backend that validates every request against the contracts."
    let options = [
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "mocks", valueName: "DIR", help: "The fixtures directory (default: mocks)."),
        Arguments.Option(name: "host", valueName: "IPV4", help: "The address to listen on (default: 127.0.0.1)."),
        Arguments.Option(name: "port", valueName: "N", help: "The port; 0 picks a free one (default: 8080)."),
        Arguments.Option(name: "threads", valueName: "N", help: "Worker threads (default: the number of cores)."),
        Arguments.Option(name: "max-body", valueName: "SIZE", help: "The largest request body, such as 512KiB or 2MiB (default: 1MiB)."),
        Arguments.Option(name: "header-timeout", valueName: "DURATION",
                         help: "How long a connection has to send each request head, such as 10s (default: 10s, at most 1h)."),
        Arguments.Option(name: "max-connections", valueName: "N", help: "The most open connections (default: 4096, at most 65536)."),
        Arguments.Option(name: "max-connections-per-ip", valueName: "N", help: "The most open connections from one address (default: half of --max-connections)."),
        Arguments.Option(name: "cors", valueName: "ORIGIN", help: "Access-Control-Allow-Origin to answer, or 'off' (default: *)."),
        Arguments.Option(name: "seed", valueName: "N", help: "Seed of {{random}} in fixtures (default: 0)."),
        Arguments.Option(name: "access-ttl", valueName: "DURATION", help: "Access token lifetime, such as 30s or 2h (default: the contract's)."),
        Arguments.Option(name: "refresh-ttl", valueName: "DURATION", help: "Refresh token lifetime (default: the contract's)."),
        Arguments.Option(name: "inject", valueName: "RULE", help: "An injection rule, such as 'signal.publish=3008' or 'auth.*=1005@once'; repeatable."),
        Arguments.Option(name: "scenario", valueName: "NAME", help: "Run mocks/scenarios/NAME.yaml for every session."),
        Arguments.Option(name: "admin-token", valueName: "TOKEN", help: "Require X-Accord-Admin-Token on /__accord/ (needed to bind beyond loopback)."),
        Arguments.Option(name: "record", valueName: "FILE", help: "Append every request to FILE as a JSON line."),
        Arguments.Option(name: "fail-on", valueName: "LIST",
                         help: "Exit 1 on stop when any of these happened: 'violations', 'uncovered' (comma-separated)."),
        Arguments.Option(name: "allow-remote-steering", valueName: nil,
                         help: "Accept X-Accord-Inject, X-Accord-Scenario and X-Accord-Session from beyond loopback without the admin token."),
        Arguments.Option(name: "no-sign", valueName: nil, help: "Do not check X-Sign (for quick poking with curl)."),
        Arguments.Option(name: "no-reload", valueName: nil, help: "Do not watch the directories for changes."),
        Arguments.Option(name: "quiet", valueName: nil, help: "No access log."),
        Arguments.Option(name: "log-format", valueName: "FORMAT", help: "Access log as 'text' or 'json' (default: text)."),
    ] + ReportOptions.options

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        let settings: Settings
        do {
            settings = try Settings(arguments)
        } catch {
            console.printError("error: \(error.message)\n\n\(help)")
            return 2
        }
        let outcome = MockProject.load(contracts: settings.contracts, mocks: settings.mocks)
        var renderer = DiagnosticRenderer()
        for diagnostic in outcome.diagnostics { console.writeError(renderer.render(diagnostic)) }
        guard let project = outcome.project else {
            let errors = outcome.diagnostics.filter { $0.severity == .error }.count
            console.printError("error: not serving: \(errors) error\(errors == 1 ? "" : "s") in \(settings.contracts) and \(settings.mocks)")
            return 1
        }

        let auth = project.contract.service.auth
        var journal = Journal()
        if let path = settings.record {
            // A file-size limit must fail the write (which the recorder handles), not kill the server.
            signal(SIGXFSZ, SIG_IGN)
            do {
                journal = Journal(recorder: try JournalRecorder(path: path, report: { console.printError($0) }))
            } catch {
                console.printError("error: \(error)")
                return 1
            }
        }
        let state = MockState(nonceTTLSeconds: project.contract.service.signing.nonceTTLSeconds,
                              accessTTL: settings.accessTTL ?? auth.accessTTLSeconds, refreshTTL: settings.refreshTTL ?? auth.refreshTTLSeconds,
                              seed: settings.seed, journal: journal)
        guard settings.injections.count <= state.rules.capacity else {
            console.printError("error: \(settings.injections.count) --inject rules; the server keeps at most \(state.rules.capacity)")
            return 2
        }
        for text in settings.injections {
            do {
                let rule = try InjectionRule(parsing: text, codes: project.contract.service.codes)
                // Within the capacity checked above, adding cannot fail.
                _ = try? state.rules.add(rule)
            } catch {
                console.printError("error: --inject '\(text)': \(error.message)")
                return 2
            }
        }
        if let name = settings.mockOptions.scenario, project.scenarios[name] == nil {
            let names = project.scenarios.keys.sorted()
            console.printError("error: --scenario '\(name)': no such scenario in \(settings.mocks)/scenarios; available: \(names.joined(separator: ", "))")
            return 2
        }
        let live = LiveEngine(MockEngine(contract: project.contract, fixtures: project.fixtures, scenarios: project.scenarios,
                                               options: settings.mockOptions, state: state))
        let log = settings.quiet ? nil : AccessLog(format: settings.logFormat)
        var observer: HTTPServer.Observer?
        if let log {
            observer = { request, response, micros in log.record(request, response, latencyMicroseconds: micros) }
        }
        let server = HTTPServer(
            configuration: settings.server,
            handler: { request in live.handle(request) },
            observer: observer,
            log: { console.printError($0) }
        )
        do {
            try server.start()
        } catch {
            console.printError("error: \(error)")
            return 1
        }
        console.print(banner(project, port: server.port, settings: settings, state: state))

        let watcher = settings.reloads ? reloading(into: live, settings: settings, state: state, console: console) : nil
        waitForStop(state.shutdown)
        watcher?.stop()
        // Requests in flight finish (or are cut) before the report is taken, so it
        // counts exactly what the server answered.
        let unfinished = server.stop(grace: .milliseconds(1_500))
        log?.close()
        console.print(unfinished == 0 ? "accord serve: stopped" : "accord serve: stopped with \(unfinished) request(s) unfinished")
        return finish(live.engine.report(), settings: settings, console: console)
    }

    /// Prints the run's summary, writes `--report` and gives the exit status `--fail-on` asks for.
    private func finish(_ report: ContractReport, settings: Settings, console: Console) -> Int32 {
        console.print("accord serve: \(report.summary)")
        if let path = settings.report {
            let bytes = report.rendered(as: settings.reportFormat, failsUncovered: settings.failOn.contains(.uncovered))
            do {
                try AtomicFile.write(bytes, to: path)
                console.print("accord serve: report written to \(path)")
            } catch {
                console.printError("error: \(error)")
                return 1
            }
        }
        let met = report.met(settings.failOn)
        guard met.isEmpty else {
            console.printError("accord serve: failing: \(met.map(\.rawValue).joined(separator: " and ")) (--fail-on)")
            return 1
        }
        return 0
    }

    /// Watches the directories and swaps in a new engine on each good change; a broken
    /// edit is reported and the last good version keeps serving.
    private func reloading(into live: LiveEngine, settings: Settings, state: MockState, console: Console) -> ProjectWatcher {
        ProjectWatcher(contracts: settings.contracts, mocks: settings.mocks) { [console] outcome in
            var renderer = DiagnosticRenderer()
            for diagnostic in outcome.diagnostics { console.writeError(renderer.render(diagnostic)) }
            guard let project = outcome.project else {
                console.printError("accord serve: the change has errors; still serving the previous version")
                return
            }
            live.replace(with: MockEngine(contract: project.contract, fixtures: project.fixtures, scenarios: project.scenarios,
                                          options: settings.mockOptions, state: state))
            console.print("accord serve: reloaded: \(project.contract.endpoints.count) endpoints, \(project.fixtures.count) fixtures")
        }
    }

    private func banner(_ project: MockProject, port: UInt16, settings: Settings, state: MockState) -> String {
        let contract = project.contract
        let signing = contract.service.signing
        let signingText = settings.mockOptions.verifiesSignatures && signing.isEnabled
            ? "signing on (\(signing.algorithm.rawValue), window ±\(signing.windowSeconds)s)" : "signing off"
        return """
        accord serve: http://\(settings.server.host):\(port)\(contract.service.basePath)
          \(contract.endpoints.count) endpoints, \(project.fixtures.count) fixtures, \(signingText), \
        CORS \(settings.mockOptions.corsAllowOrigin ?? "off"), body limit \(settings.server.maxBodyBytes) bytes
          limits: \(settings.server.connectionLimit) connections (\(settings.server.perIPConnectionLimit) per address), \
        \(settings.server.headerTimeoutSeconds) s per request head, \(state.rules.capacity) rules, \(state.nonces.capacity) nonces
          contracts: \(settings.contracts)  mocks: \(settings.mocks)\(settings.reloads ? "  (reloading on change)" : "")
        """
    }

    /// Blocks until SIGINT, SIGTERM or `POST /__accord/shutdown`.
    private func waitForStop(_ shutdown: ShutdownSwitch) {
        let received = DispatchSemaphore(value: 0)
        shutdown.onRequest { received.signal() }
        let sources = [SIGINT, SIGTERM].map { number in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { received.signal() }
            source.resume()
            return source
        }
        received.wait()
        sources.forEach { $0.cancel() }
    }
}

extension ServeCommand {
    /// The command's options, checked.
    struct Settings {
        var contracts: String
        var mocks: String
        var server: HTTPServer.Configuration
        var mockOptions: MockOptions
        var seed: UInt64
        var quiet: Bool
        var logFormat: AccessLog.Format
        var reloads: Bool
        var accessTTL: Int?
        var refreshTTL: Int?
        var injections: [String]
        var record: String?
        var report: String?
        var reportFormat: ContractReport.Format
        var failOn: Set<ContractReport.FailCondition>

        init(_ arguments: Arguments) throws(UsageError) {
            contracts = arguments["contracts"] ?? "contracts"
            mocks = arguments["mocks"] ?? "mocks"
            server = HTTPServer.Configuration()
            if let host = arguments["host"] { server.host = host }
            if let port = arguments["port"] {
                guard let value = UInt16(port) else { throw UsageError("'--port' takes a number from 0 to 65535, found '\(port)'") }
                server.port = value
            }
            if let threads = arguments["threads"] {
                guard let value = Int(threads), (1...256).contains(value) else { throw UsageError("'--threads' takes a number from 1 to 256, found '\(threads)'") }
                server.threads = value
            }
            if let size = arguments["max-body"] {
                guard let bytes = Self.bytes(size) else {
                    throw UsageError("'--max-body' takes a size up to 1GiB such as 512KiB, 2MiB or 1048576, found '\(size)'")
                }
                server.maxBodyBytes = bytes
            }
            if let text = arguments["header-timeout"] {
                guard let seconds = DurationText.seconds(text) ?? Int(text), (1...3_600).contains(seconds) else {
                    throw UsageError("'--header-timeout' takes a duration from 1s to 1h such as 10s, found '\(text)'")
                }
                server.headerTimeoutSeconds = seconds
            }
            if let text = arguments["max-connections"] {
                guard let value = Int(text), (16...65_536).contains(value) else {
                    throw UsageError("'--max-connections' takes a number from 16 to 65536, found '\(text)'")
                }
                server.connectionLimit = value
                server.perIPConnectionLimit = value / 2
            }
            if let text = arguments["max-connections-per-ip"] {
                guard let value = Int(text), (1...server.connectionLimit).contains(value) else {
                    throw UsageError("'--max-connections-per-ip' takes a number from 1 to \(server.connectionLimit), found '\(text)'")
                }
                server.perIPConnectionLimit = value
            }
            mockOptions = MockOptions(verifiesSignatures: !arguments.has("no-sign"), maxBodyBytes: server.maxBodyBytes)
            if let cors = arguments["cors"] { mockOptions.corsAllowOrigin = cors == "off" ? nil : cors }
            if let seedText = arguments["seed"] {
                guard let value = UInt64(seedText) else { throw UsageError("'--seed' takes a non-negative integer, found '\(seedText)'") }
                seed = value
            } else {
                seed = 0
            }
            quiet = arguments.has("quiet")
            let formatName = arguments["log-format"] ?? "text"
            guard let format = AccessLog.Format(rawValue: formatName) else { throw UsageError("'--log-format' is 'text' or 'json', found '\(formatName)'") }
            logFormat = format
            reloads = !arguments.has("no-reload")
            accessTTL = try Self.seconds(arguments["access-ttl"], option: "access-ttl")
            refreshTTL = try Self.seconds(arguments["refresh-ttl"], option: "refresh-ttl")
            injections = arguments.all("inject")
            record = arguments["record"]
            (report, reportFormat, failOn) = try ReportOptions.parse(arguments)
            mockOptions.scenario = arguments["scenario"]
            mockOptions.adminToken = arguments["admin-token"]
            mockOptions.allowsRemoteSteering = arguments.has("allow-remote-steering")
            if !server.host.hasPrefix("127.") && mockOptions.adminToken == nil {
                throw UsageError("binding \(server.host) exposes the control API beyond this machine; give --admin-token TOKEN")
            }
        }

        /// `30s`, `10m`, `2h`, `30d` or seconds.
        static func seconds(_ text: String?, option: String) throws(UsageError) -> Int? {
            guard let text else { return nil }
            if let value = Int(text) ?? DurationText.seconds(text), value > 0 { return value }
            throw UsageError("'--\(option)' takes a duration such as 30s, 10m or 2h, found '\(text)'")
        }

        /// The largest `--max-body`: 1 GiB.
        static let maxBodyLimit = 1 << 30

        /// `1048576`, `512KiB`, `512k`, `2MiB`, `2m`; nil past ``maxBodyLimit`` or below 0.
        static func bytes(_ text: String) -> Int? {
            let lower = text.lowercased()
            let (digits, factor) = [("kib", 1_024), ("mib", 1_048_576), ("k", 1_024), ("m", 1_048_576), ("b", 1)]
                .first { lower.hasSuffix($0.0) }.map { (lower.dropLast($0.0.count), $0.1) } ?? (Substring(lower), 1)
            guard let amount = Int(digits), amount >= 0 else { return nil }
            let (bytes, overflow) = amount.multipliedReportingOverflow(by: factor)
            return !overflow && bytes <= maxBodyLimit ? bytes : nil
        }
    }
}
