import AccordContract
import AccordGenerator
import Testing

/// Acronyms, the generator's own and a contract's, of any length a contract may give
/// (up to 16 letters): all in capitals in every word of a name but the first of a
/// property, which is all in lower case, as a word written in capitals is.
@Suite struct AcronymTests {
    @Test func aContractsAcronymsAreCasedAsTheGeneratorsOwn() throws {
        let yaml = """
        domain: kube
        endpoints:
          kube.kb-search:
            route: GET /kb
            response: {kb_id: string, url_list: [string], kubernetes_pod: string, pod_kubernetes: string, KB: int, Api_key: string, kbx: string, pod_KB: string}
        """
        let outcome = InlineContract.load(domains: [("contracts/kube.yaml", yaml)], acronyms: ["kb", "kubernetes"])
        let files = SwiftGenerator(contract: try #require(outcome.contract, "\(outcome.diagnostics)")).files()
        let models = try #require(files.first { $0.path == "Models/KubeModels.swift" }).contents
        for line in ["public struct KubeKBSearchResponse: Codable, Hashable, Sendable {", "public var kbID: String", "public var urlList: [String]",
                     "public var kubernetesPod: String", "public var podKUBERNETES: String", "public var kb: Int", "public var apiKey: String",
                     "public var kbx: String", "public var podKB: String"] {
            #expect(models.contains(line), "\(line) in:\n\(models)")
        }
        let endpoints = try #require(files.first { $0.path == "Endpoints/API+Kube.swift" }).contents
        #expect(endpoints.contains("public func kbSearch() -> Endpoint<KubeKBSearchResponse> {"), "\(endpoints)")
    }
}
