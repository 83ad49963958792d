import AccordContract
import AccordDiagnostics
import AccordFiles
import AccordMock
import AccordMocksFormat
import AccordReport
import AccordServer
import AccordTLS
import Foundation

/// `accord serve`: the mock backend on a contracts and a fixtures directory.
struct ServeCommand: Subcommand {
    let name = "serve"
    let abstract = "Serve a mock backend that validates every request against the contracts."
    let options = [
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "mocks", valueName: "DIR", help: "The fixtures directory (default: mocks)."),
        Arguments.Option(name: "port", valueName: "N", help: "The port; 0 picks a free one (default: 8080)."),
        Arguments.Option(name: "cors", valueName: "ORIGIN", help: "Access-Control-Allow-Origin to answer, or 'off' (default: *)."),
        Arguments.Option(name: "seed", valueName: "N", help: "Seed of {{random}} in fixtures (default: 0)."),
        Arguments.Option(name: "access-ttl", valueName: "DURATION", help: "Access token lifetime, such as 30s or 2h (default: the contract's)."),
        Arguments.Option(name: "refresh-ttl", valueName: "DURATION", help: "Refresh token lifetime (default: the contract's)."),
        Arguments.Option(name: "no-reload", valueName: nil, help: "Do not watch the directories for changes."),
        Arguments.Option(name: "state", valueName: "FILE", help: "Load the collections' records from FILE at start and write them there on stop."),
        Arguments.Option(name: "upload-budget", valueName: "SIZE",
                         help: "The most bytes of uploaded files kept, oldest evicted first, such as 256MiB (default: 64MiB)."),
        Arguments.Option(name: "session-state-budget", valueName: "SIZE",
                         help: "The most bytes of collection records one session keeps; past it its oldest records go (default: 16MiB)."),
        Arguments.Option(name: "state-budget", valueName: "SIZE",
                         help: "The most bytes of collection records all sessions keep; past it the least recently used session goes (default: 512MiB)."),
    ] + ListenerOptions.options + TLSOptions.options

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        // Before any thread starts, so that every thread leaves SIGINT and SIGTERM to it.
        let stop = Listening.StopRequest()
        var settings: Settings
        do {
            settings = try Settings(arguments)
        } catch {
            console.printError("error: \(error.message)\n\n\(help)")
            return 2
        }
        guard let project = Listening.load(contracts: settings.contracts, mocks: settings.mocks, doing: "serving", console: console) else {
            return 1
        }
        guard let journal = Listening.journal(recording: settings.listener.record, console: console) else { return 1 }
        let state = settings.state(for: project.contract, journal: journal)
        stop.include(state.shutdown)
        guard Listening.prepare(state, options: settings.listener, contract: project.contract, scenarios: project.scenarios,
                                mocks: settings.mocks, console: console) else { return 2 }
        let live = LiveEngine(MockEngine(contract: project.contract, fixtures: project.fixtures, scenarios: project.scenarios,
                                         collections: project.collections, options: settings.mockOptions, state: state))
        if let path = settings.state { loadState(from: path, project: project, state: state, console: console) }
        let (log, observer) = Listening.accessLog(settings.listener)
        settings.listener.server.bodyLimit = { method, target in live.engine.bodyLimits.limit(method: method, target: target) }
        var secure: TLSOptions.Prepared?
        var downloads: TrustDownloads?
        if let tls = settings.tls {
            guard let prepared = prepare(tls, console: console) else { return 1 }
            (secure, downloads) = prepared
            settings.listener.server.tls = secure?.identity
        }
        let server = HTTPServer(
            configuration: settings.listener.server,
            handler: { [downloads] request in downloads?.answer(request) ?? live.handle(request) },
            observer: observer,
            log: { console.printError($0) }
        )
        do {
            try server.start()
        } catch {
            console.printError("error: \(error)")
            return 1
        }
        var trust: TrustListener?
        if let tls = settings.tls, let downloads {
            trust = trustListener(downloads, tls: tls, settings: settings, serverPort: server.port, console: console)
            guard trust != nil else { server.stop(grace: .zero); return 1 }
        }
        // One print, the console's URL last: scripts and tests wait for that line.
        console.print(startBanner(project, port: server.port, settings: settings, state: state, secure: secure, trust: trust))
        let watcher = settings.reloads ? reloading(into: live, settings: settings, state: state, console: console) : nil
        stop.wait()
        watcher?.stop()
        // Open event streams end first, or the stop would wait for them as for requests in flight.
        state.events.finishAll()
        shutDown(server, trust: trust, log: log, console: console)
        if let path = settings.state { saveState(to: path, state: state, collections: live.engine.collections, console: console) }
        return Listening.finish(live.engine.report(), command: name, options: settings.listener, console: console)
    }

    /// What the server prints once it listens: the banner, TLS, and the console's URL last.
    private func startBanner(_ project: MockProject, port: UInt16, settings: Settings, state: MockState, secure: TLSOptions.Prepared?,
                             trust: TrustListener?) -> String {
        var lines = [banner(project, port: port, settings: settings, state: state)]
        if let secure { lines.append(tlsBanner(secure, trust: trust, settings: settings)) }
        lines.append("  console: \(settings.tls == nil ? "http" : "https")://\(settings.listener.server.host):\(port)/__accord/ui"
                     + (settings.mockOptions.adminToken == nil ? "" : " (asks for the admin token)"))
        return lines.joined(separator: "\n")
    }

    /// The identity `--tls` names or makes, and the downloads of its local CA; nil after reporting why it cannot be had.
    private func prepare(_ tls: TLSOptions, console: Console) -> (TLSOptions.Prepared, TrustDownloads?)? {
        do {
            let prepared = try tls.prepare()
            return (prepared, try prepared.authority.map(TrustDownloads.init))
        } catch {
            console.printError("error: --tls: \(error)")
            return nil
        }
    }

    /// The listener on `--ca-port` that hands out the local CA; nil after reporting why it cannot listen.
    private func trustListener(_ downloads: TrustDownloads, tls: TLSOptions, settings: Settings, serverPort: UInt16,
                               console: Console) -> TrustListener? {
        do {
            return try TrustListener(downloads, host: settings.listener.server.host, port: tls.caPort,
                                     serverURL: "https://\(settings.listener.server.host):\(serverPort)", log: { console.printError($0) })
        } catch {
            console.printError("error: --ca-port: \(error)")
            return nil
        }
    }

    /// Stops serving: requests in flight finish (or are cut) before the report is taken,
    /// so it counts exactly what the server answered.
    private func shutDown(_ server: HTTPServer, trust: TrustListener?, log: AccessLog?, console: Console) {
        let unfinished = server.stop(grace: .milliseconds(1_500))
        trust?.stop()
        log?.close()
        console.print(unfinished == 0 ? "accord serve: stopped" : "accord serve: stopped with \(unfinished) request(s) unfinished")
    }

    /// Writes the collections' records to `--state`'s file.
    private func saveState(to path: String, state: MockState, collections: [String: CollectionDefinition], console: Console) {
        do {
            try AtomicFile.write(StateSnapshot.encode(state.collections, collections: collections), to: path)
            let sessions = state.collections.counts.sessions
            console.print("accord serve: state written to \(path) (\(sessions) session\(sessions == 1 ? "" : "s"))")
        } catch {
            console.printError("error: \(error)")
        }
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
            let dropped = state.collections.adopt(project.collections, replacing: live.engine.collections)
            live.replace(with: MockEngine(contract: project.contract, fixtures: project.fixtures, scenarios: project.scenarios,
                                          collections: project.collections, options: settings.mockOptions, state: state))
            if !dropped.isEmpty {
                console.print("accord serve: the type of \(dropped.joined(separator: ", ")) changed (or the collection is gone): its records start from the seeds again")
            }
            console.print("accord serve: reloaded: \(project.contract.endpoints.count) endpoints, \(project.fixtures.count) fixtures")
        }
    }

    /// Restores the collections from `path`; a missing file is a fresh start, a bad one
    /// one warning and the seeds.
    private func loadState(from path: String, project: MockProject, state: MockState, console: Console) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            console.printError("warning: --state: \(path) is not a regular file (a device, a directory, or a link to one); "
                               + "starting from the seeds, and the state is written there as a file on stop")
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            console.print("accord serve: no state file at \(path) yet; starting from the seeds")
            return
        }
        do {
            let records = try StateSnapshot.decode(Array(data), collections: project.collections, contract: project.contract)
            state.collections.restore(records)
            let count = records.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }
            let sessions = state.collections.counts.sessions
            console.print("accord serve: state loaded from \(path): \(sessions) session\(sessions == 1 ? "" : "s"), \(count) record\(count == 1 ? "" : "s")")
        } catch {
            console.printError(error.rendered(file: path) + "; starting from the seeds")
        }
    }

    /// `signals (12 seeds, ≤ 1000 a session)`, … and the session cap, or `none`.
    private func collectionsText(_ collections: [String: CollectionDefinition], store: any RecordStorage) -> String {
        guard !collections.isEmpty else { return "none" }
        let list = collections.values.sorted { $0.name < $1.name }.map { "\($0.name) (\($0.seedCount) seeds, ≤ \($0.limit) a session)" }
        return list.joined(separator: ", ") + "; per session, \(store.sessionLimit) sessions and \(store.totalBudgetBytes) bytes kept "
            + "(\(store.sessionBudgetBytes) a session), the least recently used evicted first"
    }

    private func banner(_ project: MockProject, port: UInt16, settings: Settings, state: MockState) -> String {
        let contract = project.contract
        let signing = contract.service.signing
        let signingText = settings.mockOptions.verifiesSignatures && signing.isEnabled
            ? "signing on (\(signing.algorithm.rawValue), window ±\(signing.windowSeconds)s)" : "signing off"
        return """
        accord serve: \(settings.tls == nil ? "http" : "https")://\(settings.listener.server.host):\(port)\(contract.service.basePath)
          \(contract.endpoints.count) endpoints, \(project.fixtures.count) fixtures, \(signingText), \
        CORS \(settings.mockOptions.corsAllowOrigin ?? "off"), body limit \(settings.listener.server.maxBodyBytes) bytes (uploads: their declared maximum)
          limits: \(settings.listener.server.connectionLimit) connections (\(settings.listener.server.perIPConnectionLimit) per address), \
        \(settings.listener.server.headerTimeoutSeconds) s per request head, \(settings.listener.server.requestTimeoutSeconds) s per request, \
        \(settings.listener.server.bodyBudgetBytes) bytes of bodies in flight, \(state.rules.capacity) rules, \(state.nonces.capacity) nonces
          collections: \(collectionsText(project.collections, store: state.collections))
          uploads: served at \(MockEngine.storagePrefix)ID, \(state.uploads.usage.budgetBytes) bytes kept at most (--upload-budget), oldest evicted first
          contracts: \(settings.contracts)  mocks: \(settings.mocks)\(settings.reloads ? "  (reloading on change)" : "")
        """
    }
}

extension ServeCommand {
    /// How the certificate was made and how to trust its CA.
    private func tlsBanner(_ secure: TLSOptions.Prepared, trust: TrustListener?, settings: Settings) -> String {
        var lines = ["  TLS 1.2/1.3: \(secure.summary)"]
        guard let authority = secure.authority, let trust, case .localAuthority(let directory, _)? = settings.tls?.source else {
            lines.append("  trust: your certificate's CA must be trusted by the simulator or device already")
            return lines.joined(separator: "\n")
        }
        let host = settings.listener.server.host
        let deviceHost = host == "0.0.0.0" ? (MachineNames.networkAddresses.first { !$0.contains(":") } ?? host) : host
        lines.append("  trust the CA (\(directory)/ca.pem, \(authority.authorityDER.count) bytes DER):")
        lines.append("    simulator: xcrun simctl keychain booted add-root-cert \(directory)/ca.pem")
        lines.append("    device: open http://\(deviceHost):\(trust.port)\(TrustDownloads.profilePath) in Safari, install the profile, "
                     + "then enable it in Settings > General > About > Certificate Trust Settings")
        lines.append("    CA over plain HTTP: http://\(deviceHost):\(trust.port)\(TrustDownloads.pemPath)")
        if host.hasPrefix("127.") {
            lines.append("    (listening on \(host) only: a device on the network needs --host 0.0.0.0 and --admin-token)")
        }
        return lines.joined(separator: "\n")
    }
}
