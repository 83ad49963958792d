import AccordCommandLine
import AccordContract
import AccordDiagnostics
import AccordMock
import AccordMockState

extension Subcommand {
    /// The contract in `arguments["contracts"]` (default `contracts`), loaded and checked
    /// as every command loads it (``MockProject/load(contracts:mocks:)``), its problems
    /// printed; nil when it has errors.
    func loadContract(_ arguments: Arguments, console: Console) -> Contract? {
        let directory = arguments["contracts"] ?? "contracts"
        let outcome = MockProject.load(contracts: directory, mocks: nil)
        var renderer = DiagnosticRenderer()
        for diagnostic in outcome.diagnostics { console.writeError(renderer.render(diagnostic)) }
        guard let contract = outcome.project?.contract else {
            console.printError("error: the contracts in \(directory) have errors")
            return nil
        }
        return contract
    }
}
