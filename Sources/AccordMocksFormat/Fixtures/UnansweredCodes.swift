import AccordContract
import AccordDiagnostics

/// The lint warning for a business code an endpoint declares that the mock never
/// answers: no fixture or example of the endpoint has the code, no effect answers it for
/// a missing record, no scenario step responds with it there, and it is none of the
/// codes the mock's own flows produce (signature, tokens, ban, validation). A tester
/// could still inject it, but an app team would not know the mock covers it. Endpoints
/// without fixtures (answered from their examples alone) are not mocked yet, and left out.
package enum UnansweredCodes {
    package static func warnings(contract: Contract, fixtures: FixtureSet, scenarios: [String: Scenario]) -> [Diagnostic] {
        let flows = FlowCodes(service: contract.service).serviceCodes
        var warnings: [Diagnostic] = []
        for endpoint in contract.endpoints {
            let written = fixtures.fixtures(for: endpoint.id)
            guard !written.isEmpty else { continue }
            var answered = Set(written.map(\.code) + endpoint.examples.map(\.code))
            answered.formUnion(written.flatMap(\.effects).compactMap(\.missingCode))
            for scenario in scenarios.values {
                for step in scenario.steps where EndpointPattern.matches(step.endpoint, endpoint.id) {
                    if case .business(let code, _, _)? = step.action { answered.insert(code) }
                }
            }
            for code in endpoint.codes where !answered.contains(code) && !flows.contains(code) {
                let name = contract.service.code(code).map { " (\($0.name))" } ?? ""
                warnings.append(.warning("'\(endpoint.id)' declares code \(code)\(name), but no fixture, example, effect or scenario answers it; "
                                         + "add a fixture with 'code: \(code)' and a 'when' that picks it", at: endpoint.location))
            }
        }
        return warnings
    }
}
