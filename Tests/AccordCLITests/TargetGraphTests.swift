import AccordTesting
import Foundation
import Testing

/// The package's target graph, as `swift package dump-package` reads `Package.swift`:
/// the layers docs/architecture.md draws hold, and every import is a declared dependency.
@Suite struct TargetGraphTests {
    /// Each target's direct dependencies and its source directory.
    struct Graph {
        var dependencies: [String: [String]] = [:]
        var paths: [String: String] = [:]
        /// What each target's directory holds that is not its source (`exclude:`).
        var excluded: [String: [String]] = [:]

        /// Every target `target` reaches, itself excluded.
        func reach(_ target: String) -> Set<String> {
            var seen: Set<String> = []
            var pending = dependencies[target] ?? []
            while let next = pending.popLast() {
                guard seen.insert(next).inserted else { continue }
                pending += dependencies[next] ?? []
            }
            return seen
        }
    }

    static let graph: Graph = {
        // A scratch path of its own: `swift test` holds the lock of .build while the tests run.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("accord-dump-package-\(getpid())").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let outcome = try? ExternalCommand.run("swift", ["package", "--package-path", Repository.root.path, "--scratch-path", scratch, "dump-package"])
        guard let data = outcome?.output, let package = try? JSONSerialization.jsonObject(with: data) as? [String: Any],
              let targets = package["targets"] as? [[String: Any]] else { return Graph() }
        var graph = Graph()
        for target in targets {
            guard let name = target["name"] as? String, let type = target["type"] as? String else { continue }
            graph.dependencies[name] = (target["dependencies"] as? [[String: Any]] ?? []).compactMap { dependency in
                let reference = dependency["byName"] ?? dependency["target"] ?? dependency["product"]
                return (reference as? [Any])?.first as? String
            }
            let base = type == "test" ? "Tests" : "Sources"
            graph.paths[name] = (target["path"] as? String) ?? "\(base)/\(name)"
            graph.excluded[name] = target["exclude"] as? [String] ?? []
        }
        return graph
    }()

    /// The C libraries that bring OpenSSL (libcrypto directly, libcurl through it), libmicrohttpd and libcurl.
    static let openSSL: Set<String> = ["CCrypto", "CCurl"]
    static let transports: Set<String> = ["CMicroHTTPD", "CCurl"]

    @Test func theDumpListsTheTargets() {
        #expect(Self.graph.dependencies["AccordMock"] != nil, "swift package dump-package did not run")
    }

    /// The mocks format is read by the engine and the generator alike, and knows neither.
    @Test func theMocksFormatStandsBelowTheEngine() {
        #expect(Self.graph.reach("AccordMock").contains("AccordMocksFormat"))
        #expect(Self.graph.reach("AccordMocksFormat").isDisjoint(with: ["AccordMock", "AccordGenerator", "AccordHTTP", "AccordSigning"]))
    }

    /// The commands parse arguments and call libraries: no server, watcher or CA listener is made in AccordCLI.
    @Test func theCommandsLeaveTheServersLifecycleToAccordHosting() throws {
        #expect(Self.graph.reach("AccordHosting").isSuperset(of: ["AccordMock", "AccordProxy", "AccordServer"]))
        let directory = Repository.root.appendingPathComponent(Self.graph.paths["AccordCLI"] ?? "Sources/AccordCLI")
        var made: [String] = []
        for file in try FileManager.default.contentsOfDirectory(atPath: directory.path) where file.hasSuffix(".swift") {
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            for call in ["HTTPServer(", "TrustListener(", "ProjectWatcher(", "LiveEngine(", "MockEngine(", "Proxy("] where text.contains(call) {
                made.append("\(file): \(call)")
            }
        }
        #expect(made.isEmpty, "\(made)")
    }

    /// The plugins' tool generates only: of the C libraries, libyaml alone is below it (the typed fixtures are
    /// rendered by the mock's state, not its engine, so no OpenSSL); `accord` is not among its dependencies.
    @Test func thePluginsToolReachesNoCLibraryButLibyaml() {
        let reach = Self.graph.reach("accord-generate")
        #expect(reach.isSuperset(of: ["AccordGenerateCommand", "AccordGenerator", "AccordMockState", "CYAML"]))
        #expect(reach.filter { $0.hasPrefix("C") && $0.dropFirst().first?.isUppercase == true } == ["CYAML"], "\(reach.sorted())")
        #expect(reach.isDisjoint(with: ["AccordMock", "AccordCrypto", "AccordSigning", "AccordServer", "AccordHTTPClient", "AccordHosting", "AccordCLI"]),
                "\(reach.sorted())")
    }

    /// The mock's state needs no engine and no OpenSSL: what signs is handed to it.
    @Test func theMockStateStandsBelowTheEngine() {
        #expect(Self.graph.reach("AccordMock").contains("AccordMockState"))
        #expect(Self.graph.reach("AccordMockState").isDisjoint(with: Self.openSSL.union(Self.transports).union(["AccordMock", "AccordSigning", "CHiredis"])),
                "\(Self.graph.reach("AccordMockState").sorted())")
    }

    /// The engine is handed a storage and knows no Redis; the Redis client knows no engine.
    @Test func redisStandsBesideTheEngine() {
        #expect(Self.graph.reach("AccordMock").isDisjoint(with: ["AccordRedis", "AccordRedisStorage", "CHiredis"]))
        #expect(Self.graph.reach("AccordRedis").isDisjoint(with: ["AccordMock", "AccordHTTP", "AccordServer"]))
        #expect(Self.graph.reach("AccordRedisStorage").isSuperset(of: ["AccordMock", "AccordRedis", "CHiredis"]))
        #expect(Self.graph.reach("AccordHosting").contains("AccordRedisStorage"))
    }

    @Test func theServerMovesBytesWithoutTheEngine() {
        #expect(!Self.graph.reach("AccordServer").contains("AccordMock"))
        #expect(Self.graph.reach("AccordServer").contains("AccordHTTP"))
    }

    @Test func theContractModelLinksNoOpenSSL() {
        #expect(Self.graph.reach("AccordContract").isDisjoint(with: Self.openSSL), "\(Self.graph.reach("AccordContract").sorted())")
        #expect(Self.graph.reach("AccordContract").isDisjoint(with: ["AccordSigning", "AccordCrypto"]))
    }

    /// What the generator plugin needs reaches no C library but libyaml: the plugin can be a small executable.
    @Test func generationReachesNoTransportAndNoOpenSSL() {
        #expect(Self.graph.reach("AccordGenerator").contains("AccordMocksFormat"))
        for target in ["AccordYAML", "AccordContract", "AccordMocksFormat", "AccordGenerator"] {
            let reached = Self.graph.reach(target)
            #expect(reached.isDisjoint(with: Self.openSSL.union(Self.transports)), "\(target) reaches \(reached.sorted())")
        }
    }

    /// The client runtime is what apps carry: it stands on no target of Accord and no C
    /// library (Foundation only), and nothing of Accord's own depends on it.
    @Test func theClientRuntimeStandsAlone() {
        #expect(Self.graph.reach("AccordClientRuntime").isEmpty, "\(Self.graph.reach("AccordClientRuntime").sorted())")
        #expect(Self.graph.dependencies.filter { $0.value.contains("AccordClientRuntime") }.keys.sorted() == ["AccordClientRuntimeTests"])
    }

    /// The importer reads a document and writes contracts: no engine, server, transport or OpenSSL (it can run anywhere the linter runs).
    @Test func theImporterReachesNoEngineAndNoTransport() {
        let reached = Self.graph.reach("AccordImport")
        #expect(reached.isSuperset(of: ["AccordContract", "AccordValidation", "AccordYAML"]))
        #expect(reached.isDisjoint(with: Self.openSSL.union(Self.transports).union(["AccordMock", "AccordServer", "AccordOpenAPI"])), "\(reached.sorted())")
    }

    /// Every `import` of a package target in a target's sources names a dependency it declares.
    @Test func everyImportIsDeclared() throws {
        let graph = Self.graph
        let targets = Set(graph.dependencies.keys)
        var undeclared: [String] = []
        for (target, path) in graph.paths.sorted(by: { $0.key < $1.key }) {
            let directory = Repository.root.appendingPathComponent(path)
            guard let walker = FileManager.default.enumerator(atPath: directory.path) else { continue }
            let declared = Set(graph.dependencies[target] ?? [])
            for case let file as String in walker where file.hasSuffix(".swift") {
                // The generator's runtime, say, is the generated client's code, compiled in the app.
                if graph.excluded[target, default: []].contains(where: { file.hasPrefix($0 + "/") }) { continue }
                let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
                for line in text.split(separator: "\n") {
                    let words = line.split(separator: " ")
                    guard let index = words.firstIndex(of: "import"), index + 1 < words.count, words[..<index].allSatisfy({ $0.hasPrefix("@") || $0 == "internal" })
                    else { continue }
                    let module = String(words[index + 1])
                    if targets.contains(module), module != target, !declared.contains(module) { undeclared.append("\(path)/\(file): \(module)") }
                }
            }
        }
        #expect(undeclared.isEmpty, "\(undeclared.joined(separator: "\n"))")
    }
}
