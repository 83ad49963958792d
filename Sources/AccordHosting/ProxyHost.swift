import AccordContract
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordProxy
import AccordReport
import AccordServer

/// `accord proxy` as a library: the contracts held to live traffic between the app and
/// a real backend, with injection on top and answers recorded as fixtures.
public struct ProxyHost {
    /// What to forward to and how.
    public struct Configuration {
        public var contracts: String
        /// Where scenarios live, in `scenarios/`: fixtures are the upstream's job here.
        public var mocks: String
        public var listener: Listener
        public var proxy: Proxy.Configuration
        public var mode: ForwardingGate.Mode
        /// A directory the upstream's answers are written into as fixture files.
        public var recordFixtures: String?

        public init(contracts: String, mocks: String, listener: Listener, proxy: Proxy.Configuration, mode: ForwardingGate.Mode = .report,
                    recordFixtures: String? = nil) {
            self.contracts = contracts
            self.mocks = mocks
            self.listener = listener
            self.proxy = proxy
            self.mode = mode
            self.recordFixtures = recordFixtures
        }
    }

    public let configuration: Configuration
    let messages: HostMessages

    public init(_ configuration: Configuration, messages: HostMessages) {
        self.configuration = configuration
        self.messages = messages
    }

    /// Loads the contracts, listens, prints the banner, forwards until `stop` comes, then
    /// stops and gives the report of what went through.
    public func run(until stop: StopRequest) throws(HostFailure) -> ContractReport {
        let project = try Startup.project(contracts: configuration.contracts, mocks: configuration.mocks, doing: "proxying", messages: messages)
        let contract = project.contract
        let state = MockState(nonceTTLSeconds: contract.service.signing.nonceTTLSeconds,
                              journal: try Startup.journal(configuration.listener, messages: messages))
        stop.include(state.shutdown)
        try Startup.prepare(state, listener: configuration.listener, project: project, mocks: configuration.mocks, messages: messages)
        let engine = MockEngine(contract: contract, fixtures: FixtureSet(), scenarios: project.scenarios, options: configuration.listener.options,
                                state: state)
        let recorder = try fixtureRecorder(for: contract)
        let proxy: Proxy
        do {
            proxy = try Proxy(configuration: configuration.proxy, gate: ForwardingGate(engine: engine, mode: configuration.mode), recorder: recorder)
        } catch {
            messages.warn("error: \(error)")
            throw .startup
        }
        let (log, observer) = Startup.accessLog(configuration.listener)
        var server = configuration.listener.server
        server.bodyLimit = { method, target in engine.bodyLimits.limit(method: method, target: target) }
        server.connectionMemoryBytes = Proxy.connectionMemoryBytes
        let http = HTTPServer(configuration: server, replying: { request in proxy.reply(to: request) }, observer: observer,
                              log: { [messages] in messages.warn($0) })
        try Startup.start(http, messages: messages)
        messages.say(banner(contract, port: http.port, recorder: recorder))
        stop.wait()
        let unfinished = http.stop(grace: .milliseconds(1_500))
        proxy.stop()
        log?.close()
        messages.say(unfinished == 0 ? "accord proxy: stopped" : "accord proxy: stopped with \(unfinished) request(s) unfinished")
        if let recorder { messages.say("accord proxy: \(recorder.count) fixture(s) recorded in \(recorder.directory)") }
        return engine.report(title: "accord proxy")
    }

    private func fixtureRecorder(for contract: Contract) throws(HostFailure) -> FixtureRecorder? {
        guard let directory = configuration.recordFixtures else { return nil }
        do {
            return try FixtureRecorder(directory: directory, contract: contract, upstream: configuration.proxy.upstream.description,
                                       report: { [messages] in messages.warn($0) })
        } catch {
            messages.warn("error: \(error)")
            throw .startup
        }
    }

    private func banner(_ contract: Contract, port: UInt16, recorder: FixtureRecorder?) -> String {
        let signing = contract.service.signing
        let signingText = configuration.listener.options.verifiesSignatures && signing.isEnabled
            ? "signing checked (\(signing.algorithm.rawValue), window ±\(signing.windowSeconds)s)" : "signing not checked"
        let proxy = configuration.proxy
        let server = configuration.listener.server
        return """
        accord proxy: http://\(server.host):\(port) -> \(proxy.upstream)
          \(contract.endpoints.count) endpoints, mode \(configuration.mode.rawValue)\(proxy.annotates ? ", annotating" : ""), \(signingText)
          limits: body \(server.maxBodyBytes) bytes, answer \(proxy.maxAnswerBytes) bytes, upstream timeout \
        \(proxy.timeoutMilliseconds) ms, \(proxy.workers) upstream workers (\(proxy.queueLimit) waiting at most)
          contracts: \(configuration.contracts)\(recorder.map { "  recording fixtures into \($0.directory)" } ?? "")
        """
    }
}
