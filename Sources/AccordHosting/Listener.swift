import AccordContract
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordServer

/// What `serve` and `proxy` share about their socket and what stands on it: the
/// server's limits, the engine's options, the access log, the standing injection rules
/// and the journal file.
public struct Listener: Sendable {
    /// The address, workers, limits and deadlines; TLS and the body limits are set by the host.
    public var server: HTTPServer.Configuration
    public var options: MockOptions
    /// The access log's format; nil writes none (`--quiet`).
    public var accessLog: AccessLog.Format?
    /// Injection rules in the text form, such as `signal.publish=3008`, added before the first request.
    public var injections: [String]
    /// A file every request is appended to as a JSON line (`--record`).
    public var journalPath: String?

    public init(server: HTTPServer.Configuration, options: MockOptions, accessLog: AccessLog.Format? = .text, injections: [String] = [],
                journalPath: String? = nil) {
        self.server = server
        self.options = options
        self.accessLog = accessLog
        self.injections = injections
        self.journalPath = journalPath
    }
}

/// The steps a host takes before it listens, each saying what went wrong through the messages.
enum Startup {
    /// The contracts and fixtures, their diagnostics reported.
    /// - Parameter doing: what the host would have done, for the refusal: `serving`.
    static func project(contracts: String, mocks: String, doing: String, messages: HostMessages) throws(HostFailure) -> MockProject {
        let outcome = MockProject.load(contracts: contracts, mocks: mocks)
        messages.report(outcome.diagnostics)
        guard let project = outcome.project else {
            let errors = outcome.diagnostics.filter { $0.severity == .error }.count
            messages.warn("error: not \(doing): \(errors) error\(errors == 1 ? "" : "s") in \(contracts) and \(mocks)")
            throw .startup
        }
        return project
    }

    /// The journal, appending to the listener's journal file when it names one.
    static func journal(_ listener: Listener, messages: HostMessages) throws(HostFailure) -> Journal {
        Journal(recorder: try recorder(listener, messages: messages))
    }

    /// The journal file's writer, when the listener names one (`--record`).
    static func recorder(_ listener: Listener, messages: HostMessages) throws(HostFailure) -> JournalRecorder? {
        guard let path = listener.journalPath else { return nil }
        do {
            return try JournalRecorder(path: path, report: { messages.warn($0) })
        } catch {
            messages.warn("error: \(error)")
            throw .startup
        }
    }

    /// Adds the listener's injection rules and checks its scenario's name.
    static func prepare(_ state: MockState, listener: Listener, project: MockProject, mocks: String,
                        messages: HostMessages) throws(HostFailure) {
        guard listener.injections.count <= state.rules.capacity else {
            messages.warn("error: \(listener.injections.count) --inject rules; the server keeps at most \(state.rules.capacity)")
            throw .setting
        }
        for text in listener.injections {
            do {
                let rule = try InjectionRule(parsing: text, codes: project.contract.service.codes)
                // Within the capacity checked above, adding cannot fail.
                _ = try? state.rules.add(rule)
            } catch {
                messages.warn("error: --inject '\(text)': \(error.message)")
                throw .setting
            }
        }
        if let name = listener.options.scenario, project.scenarios[name] == nil, !Scenario.builtInNames.contains(name) {
            let names = Scenario.builtInNames.union(project.scenarios.keys).sorted()
            messages.warn("error: --scenario '\(name)': no such scenario in \(mocks)/scenarios; available: \(names.joined(separator: ", "))")
            throw .setting
        }
    }

    /// The access log, and the server's observer that writes each answered request to it.
    static func accessLog(_ listener: Listener) -> (log: AccessLog?, observer: HTTPServer.Observer?) {
        guard let format = listener.accessLog else { return (nil, nil) }
        let log = AccessLog(format: format)
        return (log, { request, response, micros in log.record(request, response, latencyMicroseconds: micros) })
    }

    /// Starts the server, or says why it cannot listen.
    static func start(_ server: HTTPServer, messages: HostMessages) throws(HostFailure) {
        do {
            try server.start()
        } catch {
            messages.warn("error: \(error)")
            throw .startup
        }
    }
}
