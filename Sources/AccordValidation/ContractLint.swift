import AccordContract
import AccordDiagnostics

/// Everything `accord lint` checks in a contracts directory: the loader's structural
/// and semantic checks, then examples and defaults against their schemas.
public enum ContractLint {
    /// Loads `directory` and returns the contract (if one could be assembled) with
    /// every diagnostic, sorted by location.
    public static func run(directory: String, loader: ContractLoader = ContractLoader()) -> ContractLoader.Outcome {
        check(loader.load(directory: directory))
    }

    /// Adds the example and default checks to a loader's outcome.
    public static func check(_ outcome: ContractLoader.Outcome) -> ContractLoader.Outcome {
        guard let contract = outcome.contract else { return outcome }
        var checked = outcome
        checked.diagnostics = (outcome.diagnostics + ExampleChecker(contract: contract).check()).sortedByLocation()
        return checked
    }
}
