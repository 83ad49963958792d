import AccordTesting
import Foundation
import Testing

/// The AccordBuild plugin in an app package that depends on Accord, as SwiftPM builds it:
/// a target's `contracts/` and `mocks/` become its client at build time, again whenever
/// one of them changes, through `accord-generate`, which links libyaml alone: no HTTP
/// server, HTTP client, Redis client or OpenSSL.
@Suite struct BuildPluginTests {
    static let manifest = """
        // swift-tools-version: 6.1
        import PackageDescription

        let package = Package(
            name: "NotesApp",
            platforms: [.macOS(.v13)],
            dependencies: [.package(path: "\(Repository.root.path)")],
            targets: [
                .target(name: "Notes", exclude: ["contracts", "mocks"], plugins: [.plugin(name: "AccordBuild", package: "\(Repository.root.lastPathComponent.lowercased())")]),
                .executableTarget(name: "App", dependencies: ["Notes"], swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]),
            ]
        )

        """

    static let app = """
        import Notes

        let session = Tokens(accessToken: "preview-access-token", refreshToken: "preview-refresh-token")
        let api = APIClient(configuration: .preview, storage: InMemoryTokenStorage(session), transport: MockTransport(session: session))
        let note = try await api.send(API.notes.get(noteID: "n_7"))
        print("\\(note.title); fixture: \\(API.notes.fixtures.get.groceries.title)")

        """

    /// Left out of the ThreadSanitizer run, as the other package builds are.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "swift build of app packages starves the sanitized servers"))
    func aTargetsContractsBecomeItsClientAtBuildTime() async throws {
        let package = FileManager.default.temporaryDirectory.appendingPathComponent("accord-build-plugin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: package) }
        let notes = package.appendingPathComponent("Sources/Notes")
        try FileManager.default.createDirectory(at: notes, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: package.appendingPathComponent("Sources/App"), withIntermediateDirectories: true)
        for folder in ["contracts", "mocks"] {
            try FileManager.default.copyItem(atPath: Repository.root.appendingPathComponent("Tests/Projects/plain/\(folder)").path,
                                             toPath: notes.appendingPathComponent(folder).path)
        }
        try "// The client is generated at build time from contracts/ and mocks/.\n".write(to: notes.appendingPathComponent("Notes.swift"),
                                                                                          atomically: true, encoding: .utf8)
        try Self.manifest.write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        try Self.app.write(to: package.appendingPathComponent("Sources/App/main.swift"), atomically: true, encoding: .utf8)

        try #require(try await Self.buildAndRun(package) == "Groceries; fixture: Groceries\n")
        // The file compiled is what `accord generate` writes into one file from the same folders.
        let outputs = ".build/plugins/outputs/\(package.lastPathComponent.lowercased())/Notes/destination/AccordBuild/Accord.swift"
        let built = try String(contentsOf: package.appendingPathComponent(outputs), encoding: .utf8)
        let expected = package.appendingPathComponent("expected.swift").path
        let generate = CommandRun(["generate", "--contracts", notes.appendingPathComponent("contracts").path,
                                   "--mocks", notes.appendingPathComponent("mocks").path, "--output", expected])
        #expect(generate.status == 0, "\(generate.error)")
        #expect(built == (try String(contentsOfFile: expected, encoding: .utf8)))

        // A fixture edited: the next build generates again.
        let mocks = notes.appendingPathComponent("mocks/notes.yaml")
        try (try String(contentsOf: mocks, encoding: .utf8)).replacingOccurrences(of: "title: Groceries, body", with: "title: Shopping, body")
            .write(to: mocks, atomically: true, encoding: .utf8)
        #expect(try await Self.buildAndRun(package) == "Shopping; fixture: Shopping\n")

        // The plugin's tool: libyaml, and no server, HTTP client, Redis client or OpenSSL.
        let tool = package.appendingPathComponent(".build/debug/accord-generate").path
        let libraries = try ExternalCommand.run("ldd", [tool]).text
        #expect(libraries.contains("libyaml"), "\(libraries)")
        for library in ["libmicrohttpd", "libcurl", "libhiredis", "libgnutls", "libcrypto", "libssl"] {
            #expect(!libraries.contains(library), "\(library) in \(libraries)")
        }

        // A target with the plugin and no contracts/ fails the build, saying where they go.
        let empty = package.appendingPathComponent("Sources/Empty")
        try FileManager.default.createDirectory(at: empty, withIntermediateDirectories: true)
        try "public let nothing = 0\n".write(to: empty.appendingPathComponent("Empty.swift"), atomically: true, encoding: .utf8)
        let plugin = #".plugin(name: "AccordBuild", package: "\#(Repository.root.lastPathComponent.lowercased())")"#
        try Self.manifest.replacingOccurrences(of: "        .executableTarget(name: \"App\"",
                                               with: "        .target(name: \"Empty\", plugins: [\(plugin)]),\n        .executableTarget(name: \"App\"")
            .write(to: package.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let refused = try await ExternalCommand.runOnOwnThread("swift", ["build", "--package-path", package.path], timeLimit: 900)
        #expect(refused.status != 0)
        #expect((refused.text + refused.errors).contains("AccordBuild: target 'Empty' has no contracts/ folder (\(empty.path)/contracts); put the contracts there"),
                "\(refused.text)\(refused.errors)")
    }

    /// `swift build` of `package`, then its app's output.
    static func buildAndRun(_ package: URL) async throws -> String {
        let build = try await ExternalCommand.runOnOwnThread("swift", ["build", "--package-path", package.path], timeLimit: 900)
        guard build.status == 0 else {
            Issue.record("swift build failed: \(build.text)\(build.errors)")
            return ""
        }
        let run = try ExternalCommand.run(package.appendingPathComponent(".build/debug/App").path, [])
        #expect(run.status == 0, "\(run.errors)")
        return run.text
    }
}
