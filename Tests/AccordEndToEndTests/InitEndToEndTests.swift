import AccordTesting
import Foundation
import Testing

/// `accord init` as a new user runs it: in an empty directory, then `accord lint`,
/// `accord serve` and `accord generate` with `swift build` of an app package.
@Suite(.serialized) struct InitEndToEndTests {
    static let accord = ServerProcess.executable.path

    /// Runs `command` with `sh` in `directory`.
    private func shell(_ command: String, in directory: String) throws -> ExternalCommand.Outcome {
        try ExternalCommand.run("/bin/sh", ["-c", "cd \"$0\" && " + command, directory])
    }

    private func emptyDirectory() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-init-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        return directory
    }

    /// Left out of the ThreadSanitizer run: its two `swift build`s of app packages hold both
    /// cores for a minute while the other end-to-end tests' sanitized servers must answer in
    /// time (one did not: "Empty reply from server"), and a compiler run has no race of ours to find.
    @Test(.disabled(if: ProcessInfo.processInfo.environment["TSAN_OPTIONS"] != nil, "swift build of app packages starves the sanitized servers"),
          arguments: ["plain", "envelope"])
    func theStarterLintsServesAndGeneratesSwiftThatBuilds(_ style: String) async throws {
        let directory = try emptyDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let initialized = try ExternalCommand.run(Self.accord, ["init", directory, "--style", style])
        #expect(initialized.status == 0, "\(initialized.errors)")
        #expect(initialized.text.hasPrefix("accord init: the \(style) starter in \(directory): contracts/service.yaml, "))
        let lint = try shell("\"\(Self.accord)\" lint", in: directory)
        #expect(lint.status == 0)
        #expect(lint.text == (style == "plain" ? "0 errors, 0 warnings; 3 endpoints, 4 types in 1 domains, 3 fixtures, 1 scenarios\n"
                                                : "0 errors, 0 warnings; 5 endpoints, 3 types in 2 domains, 3 fixtures, 1 scenarios\n"))

        let server = try ServerProcess(arguments: ["--quiet"], mocks: directory + "/mocks", contracts: directory + "/contracts")
        let target = style == "plain" ? "/v1/books" : "/api/v1/auth/login"
        let connection = try RawConnection(port: server.port)
        if style == "plain" {
            connection.send("GET \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(connection.receiveResponse().hasSuffix(#"{"items":[{"id":"b_1","title":"Dune","author":"Frank Herbert","year":1965}]}"#))
        } else {
            let body = #"{"email":"reader@example.com","password":"secret"}"#
            let headers = TestSigner.headers(target: target, body: body, timestamp: Int64(Date().timeIntervalSince1970), nonce: UUID().uuidString)
                .map { "\($0.0): \($0.1)\r\n" }.joined()
            connection.send("POST \(target) HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Type: application/json\r\n\(headers)"
                            + "Content-Length: \(body.utf8.count)\r\n\r\n\(body)")
            let reply = connection.receiveResponse()
            #expect(reply.contains(#"{"code":0,"msg":"ok","data":{"access_token":"#), "\(reply)")
        }

        let app = directory + "/App"
        try FileManager.default.createDirectory(atPath: app + "/Sources/API", withIntermediateDirectories: true)
        try """
            // swift-tools-version:6.0
            import PackageDescription
            let package = Package(name: "App", platforms: [.macOS(.v13), .iOS(.v16)], targets: [.target(name: "API", path: "Sources/API")])

            """.write(toFile: app + "/Package.swift", atomically: true, encoding: .utf8)
        let generated = try shell("\"\(Self.accord)\" generate --contracts ../contracts --mocks ../mocks --output Sources/API", in: app)
        #expect(generated.status == 0, "\(generated.errors)")
        let build = try await ExternalCommand.runOnOwnThread("/bin/sh", ["-c", "cd \"$0\" && swift build 2>&1", app], timeLimit: 900)
        #expect(build.status == 0, "\(build.text)")
    }

    @Test func itWritesNothingOverExistingFiles() throws {
        let directory = try emptyDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try FileManager.default.createDirectory(atPath: directory + "/contracts", withIntermediateDirectories: true)
        try "mine\n".write(toFile: directory + "/contracts/books.yaml", atomically: true, encoding: .utf8)
        let refused = try ExternalCommand.run(Self.accord, ["init", directory])
        #expect(refused.status == 1)
        #expect(refused.errors == "error: accord init writes nothing over existing files; already there: \(directory)/contracts/books.yaml\n")
        #expect(try String(contentsOfFile: directory + "/contracts/books.yaml", encoding: .utf8) == "mine\n")
        #expect(!FileManager.default.fileExists(atPath: directory + "/contracts/service.yaml"))
        let wrongStyle = try ExternalCommand.run(Self.accord, ["init", directory, "--style", "plian"])
        #expect(wrongStyle.status == 2)
        #expect(wrongStyle.errors == "error: '--style' is 'plain' or 'envelope', found 'plian'; did you mean 'plain'?\n")
    }
}
