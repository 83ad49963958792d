import AccordContract
import AccordDiagnostics
import AccordMocksFormat
import AccordValidation
import Foundation

/// A contracts directory and a fixtures directory, loaded and checked together:
/// what `accord lint`, `accord serve` and hot reload all start from.
public struct MockProject: Sendable {
    public var contract: Contract
    public var fixtures: FixtureSet
    /// Scenarios from `scenarios/` under the fixtures directory, by name.
    public var scenarios: [String: Scenario]
    /// Collections from `collections/` under the fixtures directory, by name.
    public var collections: [String: CollectionDefinition] = [:]

    /// What loading produced: a project when nothing is in error, and every diagnostic.
    public struct Outcome: Sendable {
        public var project: MockProject?
        public var diagnostics: [Diagnostic]
        /// The contract even when something else failed, for summaries.
        public var contract: Contract?
    }

    /// Loads and checks `contracts` (and `mocks`, if given and present).
    public static func load(contracts: String, mocks: String?) -> Outcome {
        let outcome = ContractLint.run(directory: contracts)
        guard let contract = outcome.contract, !outcome.diagnostics.containsErrors else {
            return Outcome(project: nil, diagnostics: outcome.diagnostics, contract: outcome.contract)
        }
        let (collections, collectionDiagnostics) = mocks.map {
            CollectionLoader(contract: contract).load(directory: ($0 as NSString).appendingPathComponent("collections"))
        } ?? ([:], [])
        let (fixtures, fixtureDiagnostics) = mocks.map {
            FixtureLoader(contract: contract, collections: collections).load(directory: $0)
        } ?? (FixtureSet(), [])
        let (scenarios, scenarioDiagnostics) = mocks.map {
            ScenarioLoader(contract: contract, fixtures: fixtures).load(directory: ($0 as NSString).appendingPathComponent("scenarios"))
        } ?? ([:], [])
        let unanswered = mocks.map { _ in UnansweredCodes.warnings(contract: contract, fixtures: fixtures, scenarios: scenarios) } ?? []
        let collisions = SequenceKeyCollisions.warnings(fixtures: fixtures, collections: collections)
        let diagnostics = outcome.diagnostics + fixtureDiagnostics + scenarioDiagnostics + collectionDiagnostics + unanswered + collisions
        let project = MockProject(contract: contract, fixtures: fixtures, scenarios: scenarios, collections: collections)
        return Outcome(project: diagnostics.containsErrors ? nil : project, diagnostics: diagnostics, contract: contract)
    }

    /// A fingerprint of the YAML files under the directories (path, size, modification
    /// time); it changes when any file is added, removed or edited.
    public static func fingerprint(of directories: [String]) -> [String] {
        let fileManager = FileManager.default
        var entries: [String] = []
        for directory in directories {
            guard let walker = fileManager.enumerator(atPath: directory) else { continue }
            for case let relative as String in walker where relative.hasSuffix(".yaml") || relative.hasSuffix(".yml") {
                let path = (directory as NSString).appendingPathComponent(relative)
                let attributes = try? fileManager.attributesOfItem(atPath: path)
                let size = (attributes?[.size] as? NSNumber)?.intValue ?? -1
                let modified = (attributes?[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
                entries.append("\(path) \(size) \(modified)")
            }
        }
        return entries.sorted()
    }
}
