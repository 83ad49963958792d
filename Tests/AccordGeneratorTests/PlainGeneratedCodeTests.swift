import AccordContract
import AccordGenerator
import AccordMock
import AccordMockState
import AccordMocksFormat
import AccordTesting
import Foundation
import Testing

/// What `accord generate` writes for the plain REST API of `Tests/Projects/plain` (no
/// envelope, no signing): checked in as `Tests/NotesAPI`, free of signing code, and
/// compiling in every language mode an app may use.
@Suite struct PlainGeneratedCodeTests {
    static let project: MockProject = {
        guard let project = MockProject.load(contracts: Repository.plainContracts, mocks: Repository.plainMocks).project else {
            preconditionFailure("the plain project does not load")
        }
        return project
    }()

    static var files: [SwiftGenerator.File] {
        let samples = FixtureSamples(contract: project.contract, fixtures: project.fixtures, collections: project.collections).byEndpoint
        return SwiftGenerator(contract: project.contract, samples: samples).files()
    }

    @Test func checkedInOutputIsWhatTheGeneratorWritesToday() throws {
        let output = Repository.root.appendingPathComponent("Tests/NotesAPI")
        let files = Self.files
        let stale = files.filter { (try? String(contentsOf: output.appendingPathComponent($0.path), encoding: .utf8)) != $0.contents }.map(\.path)
        #expect(stale.isEmpty, "stale generated files (run: swift run accord generate --contracts Tests/Projects/plain/contracts --mocks Tests/Projects/plain/mocks --output Tests/NotesAPI): \(stale)")
        let onDisk = (FileManager.default.enumerator(atPath: output.path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".swift") }
        #expect(Set(onDisk) == Set(files.map(\.path)))
    }

    /// No signing symbol in the code (comments aside): no signer, no signing headers, no app key or secret.
    @Test func aContractThatSignsNothingGetsNoSigningCode() {
        let symbols = ["RequestSigner", "signature", "appKey", "appSecret", "nonce", "X-Sign", "X-App-Key", "X-Timestamp", "X-Nonce", "sortedParams", "md5"]
        let found = Self.files.flatMap { file in
            file.contents.split(separator: "\n").filter { line in
                let code = line.trimmingCharacters(in: .whitespaces)
                return !code.hasPrefix("//") && symbols.contains { code.localizedCaseInsensitiveContains($0) }
            }.map { "\(file.path): \($0)" }
        }
        #expect(found == [])
        #expect(!Self.files.contains { $0.path == "Support/AccordRequestSigner.swift" || $0.path == "Support/AccordPortableMD5.swift" })
        // The seed's contract signs: its package keeps the signer.
        #expect(SwiftGenerator(contract: Repository.contract).files().contains { $0.path == "Support/AccordRequestSigner.swift" })
    }

    @Test func errorsAreReadByStatusAndDiscriminator() throws {
        let service = try #require(Self.files.first { $0.path == "Support/Service.swift" }).contents
        #expect(service.contains([
            "        case 401:",
            #"            if members["type"] == "https://notes.example.com/problems/token-expired" { return .tokenExpired }"#,
            #"            if members["type"] == "https://notes.example.com/problems/refresh-invalid" { return .refreshInvalid }"#,
            "            return .forceLogout",
            "        case 403: return .banned",
        ].joined(separator: "\n")))
        #expect(service.contains("static let usesEnvelope = false"))
        #expect(service.contains("static let tokenInvalidCode = BusinessCode.tokenExpired"), "a rotated token is retried, as the mock answers it")
        let configuration = try #require(Self.files.first { $0.path == "Support/ClientConfiguration.swift" }).contents
        #expect(configuration.contains("public init(serverURL: URL, timeout: TimeInterval = 30, retryPolicy: RetryPolicy = .contract)"))
    }

    /// The package type-checks warning-free as Swift 6, as Swift 5 with complete concurrency
    /// checking, and with default `MainActor` isolation (LanguageModeTests builds and runs the
    /// envelope package in each of these as SwiftPM targets).
    @Test(arguments: [["-swift-version", "6", "-warnings-as-errors"], ["-swift-version", "5", "-strict-concurrency=complete", "-warnings-as-errors"],
                      ["-swift-version", "6", "-default-isolation", "MainActor", "-warnings-as-errors"]])
    func thePackageCompilesInEveryLanguageMode(_ mode: [String]) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-notes-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var paths: [String] = []
        for file in Self.files {
            let url = directory.appendingPathComponent(file.path)
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try file.contents.write(to: url, atomically: true, encoding: .utf8)
            paths.append(url.path)
        }
        let run = try ExternalCommand.run("swiftc", ["-typecheck", "-module-name", "NotesAPI"] + mode + paths)
        #expect(run.status == 0, "\(run.errors)")
    }
}
