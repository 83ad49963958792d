import AccordFlowConformance
import AccordJSON

extension ContractReport {
    /// The report as JSON: the summary, each endpoint with its failures, unknown routes
    /// and the three coverages.
    public var json: JSONValue {
        .object([
            .init("title", .string(title)),
            .init("summary", .object([
                .init("text", .string(summary)), .init("requests", .int(requests)), .init("violations", .int(violations)),
                .init("endpoints_with_violations", .int(endpointsWithViolations)),
            ])),
            .init("coverage", .object([
                .init("endpoints", endpointCoverage.json), .init("fixtures", answerCoverage.json), .init("codes", codeCoverage.json),
            ])),
            .init("endpoints", .array(endpoints.map(\.json))),
            .init("unknown_routes", .array(unknownRoutes.map { route, tally in
                .object([.init("route", .string(route))] + tally.jsonMembers)
            })),
            .init("other_unknown_routes", .int(otherUnknownRoutes)),
        ] + (flows.map { [.init("flows", $0.json)] } ?? []))
    }
}

extension FlowReport {
    /// `{"violations": N, "declared": M, "exercised": K, "matrix": [{endpoint, flow, declared, exercised, conformed, violations: […]}]}`:
    /// `declared` the pairs the contract declares, `exercised` how many of them the run met; then
    /// `rules`: each rule with its flow, how many requests it was put to and how many broke it.
    public var json: JSONValue {
        .object([
            .init("violations", .int(violations)), .init("sessions_forgotten", .int(forgottenSessions)),
            .init("declared", .int(declaredCount)), .init("exercised", .int(exercisedDeclaredCount)),
            .init("matrix", .array(cells.map { cell in
                .object([
                    .init("endpoint", .string(cell.pair.endpoint)), .init("flow", .string(cell.pair.flow.rawValue)),
                    .init("declared", .bool(cell.declared)), .init("exercised", .int(cell.exercised)), .init("conformed", .bool(cell.conformed)),
                    .init("violations", .array(cell.violations.map { violation in
                        .object([.init("rule", .string(violation.rule.rawValue)), .init("session", .string(violation.session)),
                                 .init("met", .int(violation.met)), .init("offending", violation.offending.map { .int($0) } ?? .null),
                                 .init("message", .string(violation.description))])
                    })),
                ])
            })),
            .init("rules", .array(rules.map { entry in
                .object([.init("rule", .string(entry.rule.rawValue)), .init("flow", .string(entry.rule.flow.rawValue)),
                         .init("checked", .int(entry.checked)), .init("broken", .int(entry.broken))])
            })),
        ])
    }
}

extension ContractReport.EndpointResult {
    var json: JSONValue {
        .object([
            .init("id", .string(endpoint.id)), .init("domain", .string(endpoint.domain)),
            .init("method", .string(endpoint.method.rawValue)), .init("path", .string(endpoint.path.description)),
            .init("covered", .bool(isCovered)),
        ] + tally.jsonMembers + [
            .init("unused_fixtures", .array(unusedAnswers.map { .string($0) })),
            .init("missing_codes", .array(missingCodes.map { .int($0) })),
        ])
    }
}

extension Observations.Tally {
    var jsonMembers: [JSONValue.Member] {
        [
            .init("requests", .int(requests)), .init("injected", .int(injected)), .init("violations", .int(failed)),
            .init("failures", .array(failures.map(\.json))), .init("omitted_failures", .int(omittedFailures)),
            .init("answers", .object(answers.sorted { $0.key < $1.key }.map { .init($0.key, .int($0.value)) })),
            .init("codes", .object(codes.sorted { $0.key < $1.key }.map { .init(String($0.key), .int($0.value)) })),
        ]
    }
}

extension Observation.Failure {
    /// The failure as JSON: side, kind, message, origin and details.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [.init("side", .string(side.rawValue)), .init("kind", .string(kind)), .init("message", .string(message))]
        if let origin { members.append(.init("origin", .string(origin))) }
        members.append(.init("details", details))
        return .object(members)
    }
}
