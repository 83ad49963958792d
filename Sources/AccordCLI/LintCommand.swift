import AccordDiagnostics
import AccordGenerator
import AccordMock
import AccordMocksFormat

/// `accord lint`: every problem in the contracts, compiler-style, non-zero exit on errors.
struct LintCommand: Subcommand {
    let name = "lint"
    let abstract = "Check contracts and print every problem as path:line:col: error: message."
    let options = [
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "mocks", valueName: "DIR", help: "Also check the fixtures in DIR against the contracts (default: mocks, if present)."),
        Arguments.Option(name: "quiet", valueName: nil, help: "Print only the one-line form of each problem, and no summary."),
    ]

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        let outcome = MockProject.load(contracts: arguments["contracts"] ?? "contracts", mocks: arguments["mocks"] ?? "mocks")
        // What the generated Swift will differ in (renamed enum cases, no automatic refresh,
        // fixtures that cannot be typed), once the contract loads.
        let generator = outcome.project.map { project -> [Diagnostic] in
            let samples = FixtureSamples(contract: project.contract, fixtures: project.fixtures, collections: project.collections)
            return SwiftGenerator(contract: project.contract, samples: samples.byEndpoint)
                .diagnostics()
        } ?? []
        let diagnostics = (outcome.diagnostics + generator).sortedByLocation()
        var renderer = DiagnosticRenderer()
        for diagnostic in diagnostics {
            if arguments.has("quiet") {
                console.print(diagnostic.description)
            } else {
                console.write(renderer.render(diagnostic))
            }
        }
        let errors = diagnostics.filter { $0.severity == .error }.count
        let warnings = diagnostics.filter { $0.severity == .warning }.count
        if !arguments.has("quiet") {
            let summary = "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
            if let contract = outcome.contract {
                let fixtures = outcome.project.map {
                    ", \($0.fixtures.count) fixtures, \($0.scenarios.count) scenarios" + ($0.collections.isEmpty ? "" : ", \($0.collections.count) collection\($0.collections.count == 1 ? "" : "s")")
                } ?? ""
                console.print("\(summary); \(contract.endpoints.count) endpoints, \(contract.types.values.filter { $0.instance == nil }.count) types in \(contract.domains.count) domains\(fixtures)")
            } else {
                console.print(summary)
            }
        }
        return errors > 0 ? 1 : 0
    }
}
