import AccordContract
import AccordGenerator
import AccordMock
import AccordMockState
import AccordTesting
import Foundation
import Testing

/// The generated package inside app targets of every concurrency setting an iOS app may
/// use, built by SwiftPM with `-warnings-as-errors` and run: Swift 6; Swift 5 with
/// complete checking; default `MainActor` isolation (Xcode 26's app template); and that
/// with the upcoming features Xcode 26 turns on as "Approachable Concurrency".
///
/// Each target holds the checked-in `Tests/TongbanAPI` (which the golden test keeps equal
/// to what `accord generate` writes) and the same small app: a main-actor view model that
/// loads the inbox through `MockTransport`, meets an expired token, refreshes and retries.
///
/// Each also holds a model with deprecated members (``deprecatedModel(namespace:)``).
/// Two more targets hold the same output generated with `--namespace Tongban` beside a
/// module that declares the names Moya and Alamofire declare (`API`, `Endpoint`,
/// `HTTPMethod`, `Transport`, `Tokens`, `Page`, `QueryItem`); their app uses both.
@Suite struct LanguageModeTests {
    /// Each app target's name and SwiftPM settings.
    static let modes: [(target: String, settings: String)] = [
        ("Swift6App", "[.swiftLanguageMode(.v6)]"),
        ("Swift5StrictApp", #"[.swiftLanguageMode(.v5), .enableUpcomingFeature("StrictConcurrency")]"#),
        ("MainActorApp", "[.swiftLanguageMode(.v6), .defaultIsolation(MainActor.self)]"),
        ("ApproachableApp", #"[.swiftLanguageMode(.v6), .defaultIsolation(MainActor.self), "#
            + #".enableUpcomingFeature("NonisolatedNonsendingByDefault"), .enableUpcomingFeature("InferIsolatedConformances")]"#),
    ]

    /// The app each target builds around the generated code.
    static let app = """
        import Foundation

        @MainActor final class InboxModel {
            private let api: any APISending
            private(set) var signals: [Signal] = []
            private(set) var alert: String?

            init(api: any APISending) {
                self.api = api
            }

            func load() async {
                do {
                    signals = try await api.send(API.signal.inbox(limit: 20)).items
                } catch {
                    alert = error.description
                }
            }
        }

        @main struct App {
            static func main() async {
                let session = Tokens(accessToken: "preview-access-token", refreshToken: "preview-refresh-token")
                let mock = MockTransport(session: session)
                let api = APIClient(configuration: .preview, storage: InMemoryTokenStorage(session), transport: mock)
                let model = InboxModel(api: api)
                await mock.expireTokens()
                await model.load()
                let calls = await mock.calls.compactMap(\\.endpoint)
                let signals = model.signals.count
                print("\\(signals) signals after \\(calls.joined(separator: " "))")
            }
        }

        """

    /// The targets of the namespaced output, in the strictest settings: Swift 5 with complete checking, default `MainActor`.
    static let namespacedModes = [modes[1], modes[2]].map { (target: "Namespaced" + $0.target, settings: $0.settings) }

    /// A module with the top-level names of Moya and Alamofire.
    static let clash = """
        public enum API { public static let name = "their API" }
        public struct Endpoint: CustomStringConvertible { public init() {}; public var description: String { "their Endpoint" } }
        public enum HTTPMethod: String { case get = "their GET" }
        public protocol Transport {}
        public struct Tokens {}
        public struct Page {}
        public struct QueryItem {}

        """

    /// The app of the namespaced targets: the same view model, written with `Tongban.`, beside the other module's names.
    static let namespacedApp = "import Clash\n" + app
        .replacingOccurrences(of: "any APISending", with: "any Tongban.APISending")
        .replacingOccurrences(of: "[Signal]", with: "[Tongban.Signal]")
        .replacingOccurrences(of: "api.send(API.", with: "api.send(Tongban.API.")
        .replacingOccurrences(of: "= Tokens(", with: "= Tongban.Tokens(")
        .replacingOccurrences(of: "= MockTransport(", with: "= Tongban.MockTransport(")
        .replacingOccurrences(of: "= APIClient(", with: "= Tongban.APIClient(")
        .replacingOccurrences(of: "storage: InMemoryTokenStorage(", with: "storage: Tongban.InMemoryTokenStorage(")
        .replacingOccurrences(of: #"print("\(signals) signals after \(calls.joined(separator: " "))")"#, with: #"""
            let theirs = [API.name, Endpoint().description, HTTPMethod.get.rawValue, "\(Tokens.self) \(Page.self) \(QueryItem.self)"]
                    print("\(signals) signals after \(calls.joined(separator: " ")); \(theirs.joined(separator: ", "))")
            """#)

    /// The repository's output nested in `Tongban`.
    static func namespacedFiles() throws -> [SwiftGenerator.File] {
        let project = Repository.project
        let samples = FixtureSamples(contract: project.contract, fixtures: project.fixtures, collections: project.collections).byEndpoint
        return try SwiftGenerator(contract: project.contract, samples: samples, namespace: "Tongban").output()
    }

    /// A model whose members are deprecated (one optional, one required, one boxed as it
    /// holds the model again), the file `accord generate` writes for it: Swift warns where
    /// code reaches a deprecated member, so the generated initializers and `encode(to:)`
    /// must not (the app's own use of them is the app's warning).
    static func deprecatedModel(namespace: String?) throws -> String {
        let domain = """
            domain: legacy
            types:
              Legacy:
                fields:
                  id: string
                  old: {type: string, optional: true, deprecated: true}
                  retired: {type: int, deprecated: true}
                  parent: {type: Legacy, optional: true, deprecated: true}
            endpoints:
              legacy.get:
                route: GET /legacy
                response: Legacy
            """
        let outcome = InlineContract.load(domain: domain, file: "legacy.yaml", refresh: "legacy.get")
        let files = try SwiftGenerator(contract: try #require(outcome.contract), namespace: namespace).output()
        return try #require(files.first { $0.path == "Models/LegacyModels.swift" }).contents
    }

    /// Left out of the ThreadSanitizer run, as the other app builds are: it holds both cores
    /// while sanitized servers of other suites must answer in time.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "swift build of app packages starves the sanitized servers"))
    func theGeneratedPackageBuildsWarningFreeAndRunsInEveryMode() async throws {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("accord-modes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: package) }
        let generated = Repository.root.appendingPathComponent("Tests/TongbanAPI")
        for mode in Self.modes {
            let sources = package.appendingPathComponent("Sources/\(mode.target)")
            try FileManager.default.createDirectory(at: sources.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: generated, to: sources)
            try Self.app.write(to: sources.appendingPathComponent("App.swift"), atomically: true, encoding: .utf8)
            try Self.deprecatedModel(namespace: nil).write(to: sources.appendingPathComponent("Models/LegacyModels.swift"), atomically: true, encoding: .utf8)
        }
        let namespaced = try Self.namespacedFiles()
        for mode in Self.namespacedModes {
            let sources = package.appendingPathComponent("Sources/\(mode.target)")
            for file in namespaced {
                let url = sources.appendingPathComponent(file.path)
                try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try file.contents.write(to: url, atomically: true, encoding: .utf8)
            }
            try Self.namespacedApp.write(to: sources.appendingPathComponent("App.swift"), atomically: true, encoding: .utf8)
            try Self.deprecatedModel(namespace: "Tongban").write(to: sources.appendingPathComponent("Models/LegacyModels.swift"), atomically: true, encoding: .utf8)
        }
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Sources/Clash"), withIntermediateDirectories: true)
        try Self.clash.write(to: package.appendingPathComponent("Sources/Clash/Clash.swift"), atomically: true, encoding: .utf8)
        let targets = Self.modes.map { #"        .executableTarget(name: "\#($0.target)", swiftSettings: \#($0.settings)),"# }
            + Self.namespacedModes.map { #"        .executableTarget(name: "\#($0.target)", dependencies: ["Clash"], swiftSettings: \#($0.settings)),"# }
            + [#"        .target(name: "Clash"),"#]
        try (["// swift-tools-version:6.2", "import PackageDescription", "",
              #"let package = Package(name: "Modes", platforms: [.macOS(.v13), .iOS(.v16)], targets: ["#]
             + targets + ["])", ""]).joined(separator: "\n")
            .write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

        let build = try await ExternalCommand.runOnOwnThread("swift", ["build", "--package-path", package.path, "-Xswiftc", "-warnings-as-errors"],
                                                             timeLimit: 900)
        #expect(build.status == 0, "\(build.text)\(build.errors)")
        let warnings = build.text.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.isEmpty, "\(warnings.joined(separator: "\n"))")
        for mode in Self.modes where build.status == 0 {
            let run = try ExternalCommand.run(package.appendingPathComponent(".build/debug/\(mode.target)").path, [])
            #expect(run.status == 0, "\(mode.target): \(run.errors)")
            #expect(run.text == "3 signals after signal.inbox auth.refresh signal.inbox\n", "\(mode.target)")
        }
        for mode in Self.namespacedModes where build.status == 0 {
            let run = try ExternalCommand.run(package.appendingPathComponent(".build/debug/\(mode.target)").path, [])
            #expect(run.status == 0, "\(mode.target): \(run.errors)")
            #expect(run.text == "3 signals after signal.inbox auth.refresh signal.inbox; their API, their Endpoint, their GET, Tokens Page QueryItem\n",
                    "\(mode.target)")
        }
    }
}
