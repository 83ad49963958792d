import AccordContract
import AccordDiagnostics
import AccordFiles
import AccordMock
import AccordMocksFormat
import AccordReport
import AccordServer
import Dispatch
import Foundation

/// What `serve` and `proxy` do around their server: the journal, the standing rules,
/// waiting for a stop, and the report at the end.
enum Listening {
    /// The contracts and fixtures, their diagnostics printed; nil (reported) when they have errors.
    /// - Parameter doing: what the command would have done, for the refusal: `serving`.
    static func load(contracts: String, mocks: String, doing: String, console: Console) -> MockProject? {
        let outcome = MockProject.load(contracts: contracts, mocks: mocks)
        var renderer = DiagnosticRenderer()
        for diagnostic in outcome.diagnostics { console.writeError(renderer.render(diagnostic)) }
        guard let project = outcome.project else {
            let errors = outcome.diagnostics.filter { $0.severity == .error }.count
            console.printError("error: not \(doing): \(errors) error\(errors == 1 ? "" : "s") in \(contracts) and \(mocks)")
            return nil
        }
        return project
    }

    /// The journal, appending to `--record FILE` when given.
    static func journal(recording path: String?, console: Console) -> Journal? {
        guard let path else { return Journal() }
        do {
            return Journal(recorder: try JournalRecorder(path: path, report: { console.printError($0) }))
        } catch {
            console.printError("error: \(error)")
            return nil
        }
    }

    /// Adds the `--inject` rules and checks `--scenario`; false (reported) when one is wrong.
    static func prepare(_ state: MockState, options: ListenerOptions, contract: Contract, scenarios: [String: Scenario], mocks: String,
                        console: Console) -> Bool {
        guard options.injections.count <= state.rules.capacity else {
            console.printError("error: \(options.injections.count) --inject rules; the server keeps at most \(state.rules.capacity)")
            return false
        }
        for text in options.injections {
            do {
                let rule = try InjectionRule(parsing: text, codes: contract.service.codes)
                // Within the capacity checked above, adding cannot fail.
                _ = try? state.rules.add(rule)
            } catch {
                console.printError("error: --inject '\(text)': \(error.message)")
                return false
            }
        }
        if let name = options.mockOptions.scenario, scenarios[name] == nil {
            let names = scenarios.keys.sorted()
            console.printError("error: --scenario '\(name)': no such scenario in \(mocks)/scenarios; available: \(names.joined(separator: ", "))")
            return false
        }
        return true
    }

    /// SIGINT, SIGTERM or `POST /__accord/shutdown`. Made first thing in a command, it
    /// blocks both signals in this thread, which every thread started later inherits, and
    /// takes them with `sigwait` on a thread of its own: a stop sent the moment the banner
    /// is read stays pending instead of being lost or killing the process. A second
    /// signal during the graceful stop ends the process at once.
    final class StopRequest: @unchecked Sendable {
        private let received = DispatchSemaphore(value: 0)

        init() {
            // A file-size limit must fail a write (the journal's, the snapshot's, the report's), which each reports, not kill the server.
            signal(SIGXFSZ, SIG_IGN)
            var signals = sigset_t()
            sigemptyset(&signals)
            sigaddset(&signals, SIGINT)
            sigaddset(&signals, SIGTERM)
            pthread_sigmask(SIG_BLOCK, &signals, nil)
            let waiter = Thread { [received, signals] in
                var signals = signals
                var taken: Int32 = 0
                var count = 0
                while sigwait(&signals, &taken) == 0 {
                    count += 1
                    if count > 1 { _exit(128 + taken) }
                    received.signal()
                }
            }
            waiter.name = "accord.stop-signals"
            waiter.start()
        }

        /// `POST /__accord/shutdown` stops too.
        func include(_ shutdown: ShutdownSwitch) {
            shutdown.onRequest { [received] in received.signal() }
        }

        /// Blocks until the stop comes.
        func wait() {
            received.wait()
        }
    }

    /// The access log `--quiet` leaves on, and the server's observer that writes each answered request to it.
    static func accessLog(_ options: ListenerOptions) -> (log: AccessLog?, observer: HTTPServer.Observer?) {
        guard !options.quiet else { return (nil, nil) }
        let log = AccessLog(format: options.logFormat)
        return (log, { request, response, micros in log.record(request, response, latencyMicroseconds: micros) })
    }

    /// Prints the run's summary, writes `--report` and gives the exit status `--fail-on` asks for.
    static func finish(_ report: ContractReport, command: String, options: ListenerOptions, console: Console) -> Int32 {
        console.print("accord \(command): \(report.summary)")
        if let path = options.report {
            let bytes = report.rendered(as: options.reportFormat, failsUncovered: options.failOn.contains(.uncovered))
            do {
                try AtomicFile.write(bytes, to: path)
                console.print("accord \(command): report written to \(path)")
            } catch {
                console.printError("error: \(error)")
                return 1
            }
        }
        let met = report.met(options.failOn)
        guard met.isEmpty else {
            console.printError("accord \(command): failing: \(met.map(\.rawValue).joined(separator: " and ")) (--fail-on)")
            return 1
        }
        return 0
    }
}
