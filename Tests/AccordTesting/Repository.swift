import AccordContract
import AccordDiagnostics
import AccordMock
import AccordMockState
import AccordValidation
import Foundation

/// The repository the tests run in: its `contracts/` and `mocks/`, and variants of them.
public enum Repository {
    public static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    public static let contracts = root.appendingPathComponent("contracts").path

    /// The text of a file of the repository (`docs/ci.md`), for tests that hold a page to
    /// the output it shows.
    public static func document(_ path: String) throws -> String {
        try String(contentsOf: root.appendingPathComponent(path), encoding: .utf8)
    }
    public static let mocks = root.appendingPathComponent("mocks").path
    /// A plain REST API of the tests' own (`Tests/Projects/plain`): no envelope, problem
    /// bodies for errors, no signing, bearer tokens with a refresh endpoint.
    public static let plainContracts = root.appendingPathComponent("Tests/Projects/plain/contracts").path
    public static let plainMocks = root.appendingPathComponent("Tests/Projects/plain/mocks").path

    /// The plain project's contracts with their `auth:` and `codes:` sections replaced
    /// (YAML text, without the section's key; nil drops the section), in a fresh directory.
    public static func plainContracts(auth: String?, codes: String) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-plain-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: plainContracts) where name.hasSuffix(".yaml") {
            var text = try String(contentsOfFile: plainContracts + "/" + name, encoding: .utf8)
            if name == "service.yaml" {
                text = text.replacing(/(?ms)^auth:\n.*?\n\n/) { _ in auth.map { "auth:\n\($0)\n\n" } ?? "" }
                    .replacing(/(?ms)^codes:\n.*?\n\n/) { _ in "codes:\n\(codes)\n\n" }
            }
            try text.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        return directory.path
    }

    /// The repository's mocks with the streamed chat reply's second and third events sent
    /// `gap` after the one before (the fixture spaces them 120 ms), in a fresh directory:
    /// a test that a stream is passed on as it comes needs gaps a loaded machine's
    /// scheduling cannot close.
    public static func mocksStreaming(gap: Duration) throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-stream-\(UUID().uuidString)")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: mocks), to: directory)
        let file = directory.appendingPathComponent("learning.yaml")
        let text = try String(contentsOf: file, encoding: .utf8)
        let milliseconds = gap.components.seconds * 1_000 + gap.components.attoseconds / 1_000_000_000_000_000
        let slowed = text.replacing(/(?m)^(      - \{data: \{delta: [^}]*\}, delay: )120ms\}$/) { match in
            match.output.0.hasPrefix("      - {data: {delta: actor") ? String(match.output.0) : "\(match.output.1)\(milliseconds)ms}"
        }
        guard slowed.components(separatedBy: "delay: \(milliseconds)ms}").count == 3 else {
            throw VariantError(description: "learning.yaml no longer streams three events 120 ms apart")
        }
        try slowed.write(to: file, atomically: true, encoding: .utf8)
        return directory.path
    }

    /// The repository's contract, loaded once.
    public static let contract: Contract = {
        guard let contract = ContractLint.run(directory: contracts).contract else {
            preconditionFailure("the repository's contracts do not load")
        }
        return contract
    }()

    /// The repository's contract with its fixtures, scenarios and collections, loaded once.
    public static let project: MockProject = {
        guard let project = MockProject.load(contracts: contracts, mocks: mocks).project else {
            preconditionFailure("the repository's mocks do not load")
        }
        return project
    }()

    /// Why a variant of the contracts could not be written or read.
    public struct VariantError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The repository's contracts with every business code moved by `offset` (1002 →
    /// 41002 for 40,000), in the table, the violation code, every endpoint's `codes` and examples' `code`,
    /// written to a fresh directory; the names and flows stay.
    public static func renumberedContracts(by offset: Int) throws -> (directory: String, contract: Contract) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-renumbered-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for name in try FileManager.default.contentsOfDirectory(atPath: contracts) where name.hasSuffix(".yaml") {
            let text = try String(contentsOfFile: contracts + "/" + name, encoding: .utf8)
            let moved = text
                .replacing(/(?m)^(  )(\d{4})(: \{name:)/) { "\($0.1)\((Int($0.2) ?? 0) + offset)\($0.3)" }
                .replacing(/(?m)^(\s+code: )(\d{4})$/) { "\($0.1)\((Int($0.2) ?? 0) + offset)" }
                .replacing(/violation_code: (\d+)/) { "violation_code: \((Int($0.1) ?? 0) + offset)" }
                .replacing(/codes: \[([0-9, ]+)\]/) { match in
                    "codes: [" + match.1.split(separator: ",").map { String((Int($0.trimmingCharacters(in: .whitespaces)) ?? 0) + offset) }
                        .joined(separator: ", ") + "]"
                }
            try moved.write(to: directory.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let outcome = ContractLint.run(directory: directory.path)
        guard let contract = outcome.contract, !outcome.diagnostics.containsErrors else {
            throw VariantError(description: "the renumbered contracts do not load: \(outcome.diagnostics.map(\.description))")
        }
        return (directory.path, contract)
    }
}
