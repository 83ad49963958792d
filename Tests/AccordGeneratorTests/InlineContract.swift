import AccordContract

/// A contract of one domain file a test writes, beside the smallest service file (one
/// business code; `refresh` its refresh endpoint): what `ContractLoader` makes of them.
enum InlineContract {
    static func load(domain: String, file: String, refresh: String) -> ContractLoader.Outcome {
        let service = "service:\n  name: s\nauth:\n  refresh: \(refresh)\ncodes:\n  1000: {name: invalid, msg: bad, http: 400}\n"
        return ContractLoader().load([.init(path: "service.yaml", bytes: Array(service.utf8)), .init(path: file, bytes: Array(domain.utf8))],
                                     directory: "contracts")
    }
}
