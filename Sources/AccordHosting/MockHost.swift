import AccordContract
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordReport
import AccordServer

/// `accord serve` as a library: the mock backend on a contracts and a fixtures
/// directory, from loading them to the report of what it answered.
///
/// ```swift
/// let stop = StopRequest()
/// let report = try MockHost(configuration, messages: messages).run(until: stop)
/// ```
public struct MockHost: Sendable {
    /// What to serve and how.
    public struct Configuration: Sendable {
        public var contracts: String
        public var mocks: String
        public var listener: Listener
        public var state: StateLimits
        /// A file the collections' records are loaded from at start and written to on stop.
        public var stateFile: String?
        /// Watch the directories and serve each good change.
        public var reloads: Bool
        /// HTTPS, and where its local CA is offered; nil serves plain HTTP.
        public var tls: TLSSetup?
        /// This process's memory, or a Redis that replicas share.
        public var storage: StorageChoice

        public init(contracts: String, mocks: String, listener: Listener, state: StateLimits = StateLimits(), stateFile: String? = nil,
                    reloads: Bool = true, tls: TLSSetup? = nil, storage: StorageChoice = .memory) {
            self.contracts = contracts
            self.mocks = mocks
            self.listener = listener
            self.state = state
            self.stateFile = stateFile
            self.reloads = reloads
            self.tls = tls
            self.storage = storage
        }
    }

    /// The server state's shape: token lifetimes, the seed of `{{random}}`, the byte budgets.
    public struct StateLimits: Sendable {
        public var seed: UInt64 = 0
        /// Token lifetimes in seconds; nil takes the contract's.
        public var accessTTL: Int?
        public var refreshTTL: Int?
        /// The bytes of uploaded files kept, and of collection records one session and all sessions keep.
        public var uploadBudget = UploadStore.defaultBudget
        public var sessionStateBudget = CollectionStore.defaultSessionBudget
        public var stateBudget = CollectionStore.defaultTotalBudget

        public init() {}
    }

    public let configuration: Configuration
    let messages: HostMessages

    public init(_ configuration: Configuration, messages: HostMessages) {
        self.configuration = configuration
        self.messages = messages
    }

    /// Loads the directories, listens, prints the banner (the console's URL last: scripts
    /// and tests wait for that line), serves until `stop` comes, then stops: requests in
    /// flight finish (or are cut) first, so the report counts exactly what was answered.
    public func run(until stop: StopRequest) throws(HostFailure) -> ContractReport {
        let project = try Startup.project(contracts: configuration.contracts, mocks: configuration.mocks, doing: "serving", messages: messages)
        let state = try configuration.state.state(for: project.contract, storage: configuration.storage,
                                                  recorder: try Startup.recorder(configuration.listener, messages: messages), messages: messages)
        stop.include(state.shutdown)
        try Startup.prepare(state, listener: configuration.listener, project: project, mocks: configuration.mocks, messages: messages)
        let live = LiveEngine(engine(for: project, state: state))
        let stateFile = configuration.stateFile.map { StateFile(path: $0, messages: messages) }
        stateFile?.load(into: state, project: project)
        let (log, observer) = Startup.accessLog(configuration.listener)
        let listening = try listen(live, observer: observer)
        messages.say(startBanner(project, port: listening.server.port, state: state, secure: listening.secure, trust: listening.trust))
        let watcher = configuration.reloads ? reloading(into: live, state: state) : nil
        stop.wait()
        watcher?.stop()
        // Open event streams end first, or the stop would wait for them as for requests in flight.
        state.events.finishAll()
        let unfinished = listening.server.stop(grace: .milliseconds(1_500))
        listening.trust?.stop()
        log?.close()
        messages.say(unfinished == 0 ? "accord serve: stopped" : "accord serve: stopped with \(unfinished) request(s) unfinished")
        stateFile?.save(state, collections: live.engine.collections)
        return live.engine.report()
    }

    private func engine(for project: MockProject, state: MockState) -> MockEngine {
        MockEngine(contract: project.contract, fixtures: project.fixtures, scenarios: project.scenarios, collections: project.collections,
                   options: configuration.listener.options, state: state)
    }

    /// The server listening, with its TLS identity and the listener that offers the local CA.
    private struct Listening {
        var server: HTTPServer
        var secure: TLSSetup.Prepared?
        var trust: TrustListener?
    }

    private func listen(_ live: LiveEngine, observer: HTTPServer.Observer?) throws(HostFailure) -> Listening {
        var server = configuration.listener.server
        server.bodyLimit = { method, target in live.engine.bodyLimits.limit(method: method, target: target) }
        var secure: TLSSetup.Prepared?
        var downloads: TrustDownloads?
        if let tls = configuration.tls {
            do {
                secure = try tls.prepare()
                downloads = try secure?.authority.map(TrustDownloads.init)
            } catch {
                messages.warn("error: --tls: \(error)")
                throw .startup
            }
            server.tls = secure?.identity
        }
        let http = HTTPServer(configuration: server, handler: { [downloads] request in downloads?.answer(request) ?? live.handle(request) },
                              observer: observer, log: { [messages] in messages.warn($0) })
        try Startup.start(http, messages: messages)
        guard let tls = configuration.tls, let downloads else { return Listening(server: http, secure: secure) }
        do {
            let trust = try TrustListener(downloads, host: server.host, port: tls.caPort, serverURL: "https://\(server.host):\(http.port)",
                                          log: { [messages] in messages.warn($0) })
            return Listening(server: http, secure: secure, trust: trust)
        } catch {
            messages.warn("error: --ca-port: \(error)")
            http.stop(grace: .zero)
            throw .startup
        }
    }

    /// Watches the directories and swaps in a new engine on each good change; a broken
    /// edit is reported and the last good version keeps serving.
    private func reloading(into live: LiveEngine, state: MockState) -> ProjectWatcher {
        ProjectWatcher(contracts: configuration.contracts, mocks: configuration.mocks) { [messages] outcome in
            messages.report(outcome.diagnostics)
            guard let project = outcome.project else {
                messages.warn("accord serve: the change has errors; still serving the previous version")
                return
            }
            let dropped: [String]
            do {
                dropped = try state.collections.adopt(project.collections, replacing: live.engine.collections)
            } catch {
                messages.warn("accord serve: the change cannot be adopted, the storage failed (\(error)); still serving the previous version")
                return
            }
            live.replace(with: engine(for: project, state: state))
            if !dropped.isEmpty {
                messages.say("accord serve: the type of \(dropped.joined(separator: ", ")) changed (or the collection is gone): "
                             + "its records start from the seeds again")
            }
            messages.say("accord serve: reloaded: \(project.contract.endpoints.count) endpoints, \(project.fixtures.count) fixtures")
        }
    }
}
