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

    /// Left out of the ThreadSanitizer run, as the other app builds are: it holds both cores
    /// while sanitized servers of other suites must answer in time.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "swift build of app packages starves the sanitized servers"))
    func theGeneratedPackageBuildsWarningFreeAndRunsInEveryMode() throws {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("accord-modes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: package) }
        let generated = Repository.root.appendingPathComponent("Tests/TongbanAPI")
        for mode in Self.modes {
            let sources = package.appendingPathComponent("Sources/\(mode.target)")
            try FileManager.default.createDirectory(at: sources.deletingLastPathComponent(), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: generated, to: sources)
            try Self.app.write(to: sources.appendingPathComponent("App.swift"), atomically: true, encoding: .utf8)
        }
        let targets = Self.modes.map { #"        .executableTarget(name: "\#($0.target)", swiftSettings: \#($0.settings)),"# }
        try (["// swift-tools-version:6.2", "import PackageDescription", "",
              #"let package = Package(name: "Modes", platforms: [.macOS(.v13), .iOS(.v16)], targets: ["#]
             + targets + ["])", ""]).joined(separator: "\n")
            .write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)

        let build = try ExternalCommand.run("swift", ["build", "--package-path", package.path, "-Xswiftc", "-warnings-as-errors"])
        #expect(build.status == 0, "\(build.text)\(build.errors)")
        let warnings = build.text.split(separator: "\n").filter { $0.contains("warning:") }
        #expect(warnings.isEmpty, "\(warnings.joined(separator: "\n"))")
        for mode in Self.modes where build.status == 0 {
            let run = try ExternalCommand.run(package.appendingPathComponent(".build/debug/\(mode.target)").path, [])
            #expect(run.status == 0, "\(mode.target): \(run.errors)")
            #expect(run.text == "3 signals after signal.inbox auth.refresh signal.inbox\n", "\(mode.target)")
        }
    }
}
