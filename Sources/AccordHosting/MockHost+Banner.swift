import AccordContract
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordServer
import AccordTLS

extension MockHost {
    /// What the server prints once it listens: the banner, TLS, and the console's URL last.
    func startBanner(_ project: MockProject, port: UInt16, state: MockState, secure: TLSSetup.Prepared?,
                     trust: TrustListener?) -> String {
        var lines = [banner(project, port: port, state: state)]
        if let secure { lines.append(tlsBanner(secure, trust: trust)) }
        lines.append("  console: \(configuration.tls == nil ? "http" : "https")://\(configuration.listener.server.host):\(port)/__accord/ui"
                     + (configuration.listener.options.adminToken == nil ? "" : " (asks for the admin token)"))
        return lines.joined(separator: "\n")
    }

    private func banner(_ project: MockProject, port: UInt16, state: MockState) -> String {
        let contract = project.contract
        let signing = contract.service.signing
        let signingText = configuration.listener.options.verifiesSignatures && signing.isEnabled
            ? "signing on (\(signing.algorithm.rawValue), window ±\(signing.windowSeconds)s)" : "signing off"
        // Nonces are kept only for a contract that signs requests.
        let nonceText = !signing.isEnabled ? "" : state.nonces.capacity == .max ? ", nonces kept \(signing.nonceTTLSeconds) s each" : ", \(state.nonces.capacity) nonces"
        return """
        accord serve: \(configuration.tls == nil ? "http" : "https")://\(configuration.listener.server.host):\(port)\(contract.service.basePath)
          \(contract.endpoints.count) endpoints, \(project.fixtures.count) fixtures, \(signingText), \
        CORS \(configuration.listener.options.corsAllowOrigin ?? "off"), body limit \(configuration.listener.server.maxBodyBytes) bytes (uploads: their declared maximum)
          limits: \(configuration.listener.server.connectionLimit) connections (\(configuration.listener.server.perIPConnectionLimit) per address), \
        \(configuration.listener.server.headerTimeoutSeconds) s per request head, \(configuration.listener.server.requestTimeoutSeconds) s per request, \
        \(configuration.listener.server.bodyBudgetBytes) bytes of bodies in flight, \(state.rules.capacity) rules\(nonceText)
          collections: \(collectionsText(project.collections, store: state.collections))
          uploads: served at \(MockEngine.storagePrefix)ID, \(configuration.state.uploadBudget) bytes kept at most (--upload-budget), oldest evicted first
          storage: \(storageText)
          contracts: \(configuration.contracts)  mocks: \(configuration.mocks)\(configuration.reloads ? "  (reloading on change)" : "")
        """
    }

    /// `memory`, or the Redis URL with this replica's name.
    private var storageText: String {
        switch configuration.storage {
        case .memory: "memory (this process)"
        case .redis(let url, let allowEviction, let replica):
            "\(url) shared, this replica '\(replica)'\(allowEviction ? ", eviction allowed (--allow-eviction)" : "")"
        }
    }

    /// `signals (12 seeds, ≤ 1000 a session)`, … and the session cap, or `none`.
    private func collectionsText(_ collections: [String: CollectionDefinition], store: any RecordStorage) -> String {
        guard !collections.isEmpty else { return "none" }
        let list = collections.values.sorted { $0.name < $1.name }.map { "\($0.name) (\($0.seedCount) seeds, ≤ \($0.limit) a session)" }
        return list.joined(separator: ", ") + "; per session, \(store.sessionLimit) sessions and \(store.totalBudgetBytes) bytes kept "
            + "(\(store.sessionBudgetBytes) a session), the least recently used evicted first"
    }

    /// How the certificate was made and how to trust its CA.
    private func tlsBanner(_ secure: TLSSetup.Prepared, trust: TrustListener?) -> String {
        var lines = ["  TLS 1.2/1.3: \(secure.summary)"]
        guard let authority = secure.authority, let trust, case .localAuthority(let directory, _)? = configuration.tls?.source else {
            lines.append("  trust: your certificate's CA must be trusted by the simulator or device already")
            return lines.joined(separator: "\n")
        }
        let host = configuration.listener.server.host
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
