import AccordCommandLine
import AccordContract
import Foundation
import AccordHosting
import AccordMock
import AccordRedis
import AccordReport
import AccordTLS

extension ServeCommand {
    /// The command's options, checked, as the host's configuration and the report's options.
    struct Settings: HostSettings {
        var host: MockHost.Configuration
        var report: ReportOptions

        init(_ arguments: Arguments) throws(UsageError) {
            var options = try ListenerOptions(arguments, defaultPort: arguments.has("tls") ? 8443 : 8080)
            report = options.report
            let port = options.listener.server.port
            let tls = try TLSOptions.setup(arguments, serverPort: port)
            options.listener.options.serverNames = Self.serverNames(host: options.listener.server.host, tls: tls)
            options.listener.options.scheme = tls == nil ? "http" : "https"
            options.listener.options.fallbackHost = port == 0 ? "localhost" : "localhost:\(port)"
            if let cors = arguments["cors"] { options.listener.options.corsAllowOrigin = cors == "off" ? nil : cors }
            let limits = try Self.limits(arguments)
            options.listener.options.seed = limits.seed
            host = MockHost.Configuration(contracts: try arguments.directory("contracts", else: "contracts"), mocks: try arguments.directory("mocks", else: "mocks"),
                                          listener: options.listener, state: limits, stateFile: arguments["state"],
                                          reloads: !arguments.has("no-reload"), tls: tls, storage: try Self.storage(arguments))
        }

        /// `--storage` with `--allow-eviction` and `--replica`; memory when it is not given.
        private static func storage(_ arguments: Arguments) throws(UsageError) -> StorageChoice {
            guard let text = arguments["storage"] else {
                for option in ["allow-eviction", "replica"] where arguments.has(option) {
                    throw UsageError("'--\(option)' is for a shared storage; add --storage redis://HOST:PORT")
                }
                return .memory
            }
            let url: RedisURL
            do {
                url = try RedisURL(parsing: text)
            } catch {
                throw UsageError("--storage: \(error)")
            }
            if arguments["state"] != nil {
                throw UsageError("'--state' keeps records in a file, and --storage keeps them in Redis already; drop one of them")
            }
            let replica = arguments["replica"] ?? "\(ProcessInfo.processInfo.hostName)-\(ProcessInfo.processInfo.processIdentifier)"
            guard (1...64).contains(replica.utf8.count), replica.utf8.allSatisfy({ (0x21...0x7E).contains($0) }) else {
                throw UsageError("'--replica' takes 1 to 64 printable ASCII characters without spaces, such as 'replica-a'")
            }
            return .redis(url, allowEviction: arguments.has("allow-eviction"), replica: replica)
        }

        func run(until stop: StopRequest, messages: HostMessages) throws(HostFailure) -> ContractReport {
            try MockHost(host, messages: messages).run(until: stop)
        }

        /// `--seed`, the token lifetimes and the byte budgets.
        private static func limits(_ arguments: Arguments) throws(UsageError) -> MockHost.StateLimits {
            var limits = MockHost.StateLimits()
            limits.seed = try arguments.integer("seed", in: 0...Int.max).map { UInt64($0) } ?? 0
            limits.accessTTL = try arguments.seconds("access-ttl", upTo: DurationText.maxSeconds, example: "30s, 10m or 2h")
            limits.refreshTTL = try arguments.seconds("refresh-ttl", upTo: DurationText.maxSeconds, example: "7d")
            limits.uploadBudget = try arguments.size("upload-budget", minimum: 1 << 10, example: "256MiB") ?? limits.uploadBudget
            limits.sessionStateBudget = try arguments.size("session-state-budget", minimum: 1 << 10, example: "16MiB") ?? limits.sessionStateBudget
            limits.stateBudget = try arguments.size("state-budget", minimum: 1 << 10, example: "512MiB")
                ?? max(limits.stateBudget, limits.sessionStateBudget)
            guard limits.stateBudget >= limits.sessionStateBudget else {
                throw UsageError("'--state-budget' (\(limits.stateBudget) bytes) must be at least '--session-state-budget' "
                                 + "(\(limits.sessionStateBudget) bytes)")
            }
            return limits
        }

        /// The names `Host` may give besides loopback: the machine's own when it listens
        /// beyond loopback, and the certificate's extra names.
        static func serverNames(host: String, tls: TLSSetup?) -> Set<String> {
            var names: [String] = []
            if case .localAuthority(_, let extra)? = tls?.source { names += extra.map { $0.lowercased() } }
            if !host.hasPrefix("127.") { names += MachineNames.all() + (host == "0.0.0.0" ? [] : [host]) }
            return Set(names)
        }
    }
}
