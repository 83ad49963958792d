import AccordContract
import AccordJSON
import AccordValidation

extension Importer {
    /// Holds every example to the schema it illustrates; one that does not fit is kept out and reported where it is written.
    mutating func checkExamples(_ contract: Contract) {
        let validator = SchemaValidator(contract: contract)
        let byID = Dictionary(contract.endpoints.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for index in endpoints.indices {
            guard let endpoint = byID[endpoints[index].id] else { continue }
            var kept: [ExampleDraft] = []
            let answerable = FlowCodes(service: contract.service).serviceCodes.union(endpoint.codes)
            for example in endpoints[index].examples {
                if example.code != 0, !answerable.contains(example.code) {
                    refuse(example, "example '\(example.name)' of '\(endpoint.id)' answers code \(example.code), which the endpoint does not declare; kept out of the contract")
                    continue
                }
                var violations = example.body.map { value in endpoint.body.map { validator.validate(value, against: $0) } ?? [] } ?? []
                // An example of a business code is not held to the success's type (as lint holds it).
                if let value = example.response, example.code == 0 { violations += validator.validate(value, against: endpoint.response) }
                if keep(example, of: endpoint.id, violations) { kept.append(example) }
            }
            endpoints[index].examples = kept
            if endpoint.body != nil, !endpoints[index].examplesAreRecorded { moveUnpairedAnswers(index) }
            var fixtures: [ExampleDraft] = []
            var names = Set(endpoints[index].examples.map(\.name))
            for var fixture in endpoints[index].fixtures {
                guard fixture.status != nil else {
                    // A success answer moved here from the examples: already held to the response type.
                    fixture.name = Names.unique(fixture.name, in: &names, separator: "-")
                    fixtures.append(fixture)
                    continue
                }
                let code = contract.service.codes.first { $0.code == fixture.status }
                let schema = code?.data ?? contract.service.errors.body
                let violations = schema.map { validator.validate(fixture.response ?? .null, against: $0) } ?? []
                guard keep(fixture, of: endpoint.id, violations) else { continue }
                fixture.name = Names.unique(fixture.name == "default" ? String(fixture.status ?? 400) : fixture.name, in: &names, separator: "-")
                fixtures.append(fixture)
            }
            endpoints[index].fixtures = fixtures
        }
    }

    /// A contract example of an endpoint with a body is a whole call: an answer without a request example to pair it
    /// with becomes a fixture instead (the mock answers it by name, or by default when the endpoint has no other).
    private mutating func moveUnpairedAnswers(_ index: Int) {
        let examples = endpoints[index].examples
        let bodies = examples.filter { $0.body != nil }
        let answers = examples.filter { $0.body == nil && $0.response != nil }
        let unpaired = answers.filter { EndpointDraft.request(for: $0, among: bodies, answers: answers.count) == nil }
        guard !unpaired.isEmpty else { return }
        let moved = Set(unpaired.map(\.name))
        endpoints[index].examples.removeAll { $0.body == nil && moved.contains($0.name) }
        let answered = endpoints[index].examples.contains { $0.response != nil }
        for (offset, var answer) in unpaired.enumerated() {
            answer.isDefault = !answered && offset == 0
            endpoints[index].fixtures.insert(answer, at: offset)
        }
    }

    private mutating func refuse(_ example: ExampleDraft, _ message: String) {
        summary.examplesRefused += 1
        log.warn("example-invalid", message, at: example.spot)
    }

    private mutating func keep(_ example: ExampleDraft, of id: String, _ violations: [Violation]) -> Bool {
        guard let first = violations.first else {
            summary.examplesKept += 1
            return true
        }
        summary.examplesRefused += 1
        let place = first.pointer.isEmpty ? "" : " at \(first.pointer)"
        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
        log.warn("example-invalid", "example '\(example.name)' of '\(id)' does not fit its schema\(place): \(first.message)\(more); kept out of the "
                 + "contract", at: example.spot)
        return false
    }
}
