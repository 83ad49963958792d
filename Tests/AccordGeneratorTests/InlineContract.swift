import AccordContract

/// A contract of domain files a test writes, beside the smallest service file (one
/// business code; `refresh` its refresh endpoint and `acronyms` its own acronyms, when
/// given): what `ContractLoader` makes of them.
enum InlineContract {
    static func load(domain: String, file: String, refresh: String? = nil) -> ContractLoader.Outcome {
        load(domains: [(file, domain)], refresh: refresh)
    }

    /// Each domain file by its path and text.
    static func load(domains: [(file: String, text: String)], refresh: String? = nil, acronyms: [String] = []) -> ContractLoader.Outcome {
        let auth = refresh.map { "auth:\n  refresh: \($0)\n" } ?? ""
        let swift = acronyms.isEmpty ? "" : "swift:\n  acronyms: [\(acronyms.joined(separator: ", "))]\n"
        let service = "service:\n  name: s\n\(auth)\(swift)codes:\n  1000: {name: invalid, msg: bad, http: 400}\n"
        return ContractLoader().load([.init(path: "service.yaml", bytes: Array(service.utf8))]
                                     + domains.map { .init(path: $0.file, bytes: Array($0.text.utf8)) }, directory: "contracts")
    }
}
