import AccordContract
import AccordMock
import AccordTLS

extension ServeCommand {
    /// The command's options, checked.
    struct Settings {
        var contracts: String
        var mocks: String
        var listener: ListenerOptions
        var mockOptions: MockOptions
        var seed: UInt64
        var reloads: Bool
        var accessTTL: Int?
        var refreshTTL: Int?
        /// `--state FILE`: the collections' records across restarts.
        var state: String?
        /// `--upload-budget SIZE`: the bytes of uploaded files kept.
        var uploadBudget = UploadStore.defaultBudget
        /// `--session-state-budget SIZE` and `--state-budget SIZE`: the bytes of records one session, and all, keep.
        var sessionStateBudget = CollectionStore.defaultSessionBudget
        var stateBudget = CollectionStore.defaultTotalBudget
        /// `--tls` and its options.
        var tls: TLSOptions?

        init(_ arguments: Arguments) throws(UsageError) {
            contracts = arguments["contracts"] ?? "contracts"
            mocks = arguments["mocks"] ?? "mocks"
            listener = try ListenerOptions(arguments, defaultPort: arguments.has("tls") ? 8443 : 8080)
            tls = try TLSOptions(arguments, serverPort: listener.server.port)
            mockOptions = listener.mockOptions
            mockOptions.serverNames = Self.serverNames(host: listener.server.host, tls: tls)
            mockOptions.scheme = tls == nil ? "http" : "https"
            let port = listener.server.port
            mockOptions.fallbackHost = port == 0 ? "localhost" : "localhost:\(port)"
            if let cors = arguments["cors"] { mockOptions.corsAllowOrigin = cors == "off" ? nil : cors }
            seed = try arguments.integer("seed", in: 0...Int.max).map { UInt64($0) } ?? 0
            reloads = !arguments.has("no-reload")
            accessTTL = try arguments.seconds("access-ttl", upTo: DurationText.maxSeconds, example: "30s, 10m or 2h")
            refreshTTL = try arguments.seconds("refresh-ttl", upTo: DurationText.maxSeconds, example: "7d")
            state = arguments["state"]
            uploadBudget = try arguments.size("upload-budget", minimum: 1 << 10, example: "256MiB") ?? uploadBudget
            sessionStateBudget = try arguments.size("session-state-budget", minimum: 1 << 10, example: "16MiB") ?? sessionStateBudget
            stateBudget = try arguments.size("state-budget", minimum: 1 << 10, example: "512MiB") ?? max(stateBudget, sessionStateBudget)
            guard stateBudget >= sessionStateBudget else {
                throw UsageError("'--state-budget' (\(stateBudget) bytes) must be at least '--session-state-budget' (\(sessionStateBudget) bytes)")
            }
        }

        /// The server's state as the options shape it: token lifetimes, the seed, the budgets.
        func state(for contract: Contract, journal: Journal) -> MockState {
            let auth = contract.service.auth
            return MockState(nonceTTLSeconds: contract.service.signing.nonceTTLSeconds,
                             accessTTL: accessTTL ?? auth.accessTTLSeconds, refreshTTL: refreshTTL ?? auth.refreshTTLSeconds,
                             seed: seed, journal: journal,
                             collections: CollectionStore(sessionBudgetBytes: sessionStateBudget, totalBudgetBytes: stateBudget),
                             uploads: UploadStore(budgetBytes: uploadBudget))
        }

        /// The names `Host` may give besides loopback: the machine's own when it listens
        /// beyond loopback, and the certificate's extra names.
        static func serverNames(host: String, tls: TLSOptions?) -> Set<String> {
            var names: [String] = []
            if case .localAuthority(_, let extra)? = tls?.source { names += extra.map { $0.lowercased() } }
            if !host.hasPrefix("127.") { names += MachineNames.all() + (host == "0.0.0.0" ? [] : [host]) }
            return Set(names)
        }
    }
}
