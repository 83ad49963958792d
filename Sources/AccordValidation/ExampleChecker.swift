import AccordContract
import AccordDiagnostics

/// Holds every example and default value in a contract to its schema, reporting each
/// violation at the line and column where the offending value was written.
public struct ExampleChecker: Sendable {
    public let contract: Contract
    private let validator: SchemaValidator

    public init(contract: Contract) {
        self.contract = contract
        // Examples are documentation: a member the contract does not declare is a typo.
        self.validator = SchemaValidator(contract: contract, unknownMembers: .reject)
    }

    /// Every violation in examples and defaults, in contract order.
    public func check() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        for endpoint in contract.endpoints {
            for example in endpoint.examples {
                diagnostics += check(example, of: endpoint)
            }
        }
        diagnostics += checkDefaults()
        return diagnostics
    }

    private func check(_ example: Endpoint.Example, of endpoint: Endpoint) -> [Diagnostic] {
        var parts: [(String, SourcedJSON, [Violation])] = []
        if let parameters = example.parameters {
            parts.append(("params", parameters, validator.validate(parameters.value, fields: endpoint.parameters)))
        }
        if let query = example.query {
            parts.append(("query", query, validator.validate(query.value, fields: endpoint.query)))
        }
        if let body = example.body {
            let violations = endpoint.body.map { validator.validate(body.value, against: $0) }
                ?? [Violation(pointer: "", expected: "no body", actual: body.value.summary,
                              message: "the endpoint takes no body")]
            parts.append(("body", body, violations))
        } else if let schema = endpoint.body, example.code == 0 {
            let missing = validator.validate(.object([]), against: schema)
            if !missing.isEmpty {
                return [.error("'\(endpoint.id)' example '\(example.name)' has no 'body'; the endpoint requires one", at: example.location)]
            }
        }
        if let response = example.response, example.code == 0 {
            parts.append(("response", response, validator.validate(response.value, against: endpoint.response)))
        } else if let response = example.response, let payload = contract.service.code(example.code)?.data {
            parts.append(("response", response, validator.validate(response.value, against: payload)))
        }
        return parts.flatMap { part, json, violations in
            violations.map { violation in
                let location = json.location(of: violation.pointer) ?? example.location
                let pointer = violation.pointer.isEmpty ? "" : " \(violation.pointer)"
                return .error("'\(endpoint.id)' example '\(example.name)' \(part)\(pointer): \(violation.message)", at: location)
            }
        }
    }

    /// Default values that their own schema would refuse.
    private func checkDefaults() -> [Diagnostic] {
        var diagnostics: [Diagnostic] = []
        var pending: [Schema] = contract.types.values.sorted { $0.location < $1.location }.map(\.schema)
        pending += contract.service.headers.map(\.schema)
        for endpoint in contract.endpoints {
            pending += (endpoint.parameters + endpoint.query + endpoint.headers).map(\.schema)
            pending += [endpoint.body, endpoint.response].compactMap { $0 }
        }
        while let schema = pending.popLast() {
            if let value = schema.defaultValue {
                for violation in validator.validate(value.value, against: schema) {
                    let location = value.location(of: violation.pointer) ?? schema.location
                    diagnostics.append(.error("default value: \(violation.message)", at: location))
                }
            }
            switch schema.kind {
            case .array(let item), .map(let item): pending.append(item)
            case .object(let fields): pending += fields.map(\.schema)
            case .primitive, .reference, .enumeration, .union: break
            }
        }
        return diagnostics
    }
}
