import AccordContract
import AccordFlowConformance
import AccordJSON

/// The verdict on a run against the contracts: per endpoint, the requests seen and the
/// failures kept; and coverage of endpoints, fixtures and declared business codes.
public struct ContractReport: Sendable {
    /// One endpoint's part of the report.
    public struct EndpointResult: Sendable {
        public var endpoint: Endpoint
        public var tally: Observations.Tally
        /// The endpoint's fixtures (and examples) never used to answer.
        public var unusedAnswers: [String]
        /// Declared business codes never answered.
        public var missingCodes: [Int]

        /// Whether it answered at least one request that kept to the contract.
        public var isCovered: Bool { tally.requests > tally.brokenRequests }
    }

    /// n of m, and which are missing.
    public struct Coverage: Sendable, Equatable {
        public var covered: Int
        public var total: Int
        public var missing: [String]

        public var json: JSONValue {
            .object([.init("covered", .int(covered)), .init("total", .int(total)), .init("missing", .array(missing.map { .string($0) }))])
        }
    }

    /// A condition that makes the run fail (`--fail-on`).
    public enum FailCondition: String, Sendable, CaseIterable {
        /// A request or an answer broke the contract.
        case violations
        /// An endpoint was never called.
        case uncovered
        /// A client broke what a code's flow asks (`--check-flows`).
        case flows
    }

    public var title: String
    public var endpoints: [EndpointResult]
    public var unknownRoutes: [(route: String, tally: Observations.Tally)]
    public var otherUnknownRoutes: Int
    public var requests: Int
    public var endpointCoverage: Coverage
    public var answerCoverage: Coverage
    public var codeCoverage: Coverage
    /// What clients did after each flow's codes, when the run checked it (`--check-flows`).
    public var flows: FlowReport?

    /// - Parameters:
    ///   - answers: the names of each endpoint's fixtures and examples, by endpoint id.
    public init(title: String, contract: Contract, answers: [String: [String]], observed: Observations.Snapshot) {
        self.title = title
        endpoints = contract.endpoints.map { endpoint in
            let tally = observed.endpoints[endpoint.id] ?? Observations.Tally()
            return EndpointResult(endpoint: endpoint, tally: tally,
                                  unusedAnswers: (answers[endpoint.id] ?? []).filter { tally.answers[$0] == nil },
                                  missingCodes: endpoint.codes.filter { tally.codes[$0] == nil })
        }
        unknownRoutes = observed.unknownRoutes.sorted { $0.key < $1.key }.map { (route: $0.key, tally: $0.value) }
        otherUnknownRoutes = observed.otherUnknownRoutes
        requests = observed.requests
        endpointCoverage = Coverage(covered: endpoints.filter(\.isCovered).count, total: endpoints.count,
                                    missing: endpoints.filter { !$0.isCovered }.map(\.endpoint.id))
        let allAnswers = contract.endpoints.flatMap { endpoint in (answers[endpoint.id] ?? []).map { "\(endpoint.id)/\($0)" } }
        let unused = endpoints.flatMap { result in result.unusedAnswers.map { "\(result.endpoint.id)/\($0)" } }
        answerCoverage = Coverage(covered: allAnswers.count - unused.count, total: allAnswers.count, missing: unused)
        let allCodes = contract.endpoints.reduce(0) { $0 + $1.codes.count }
        let missingCodes = endpoints.flatMap { result in result.missingCodes.map { "\(result.endpoint.id)/\($0)" } }
        codeCoverage = Coverage(covered: allCodes - missingCodes.count, total: allCodes, missing: missingCodes)
    }

    /// Every failure counted, on endpoints and unknown routes.
    public var violations: Int {
        endpoints.reduce(0) { $0 + $1.tally.failed } + unknownRoutes.reduce(0) { $0 + $1.tally.failed } + otherUnknownRoutes
    }

    /// Endpoints (and unknown routes) with at least one failure.
    public var endpointsWithViolations: Int {
        endpoints.filter { $0.tally.failed > 0 }.count + unknownRoutes.filter { $0.tally.failed > 0 }.count
    }

    /// `128 requests, 3 violations in 2 endpoints, 27/32 endpoints covered`.
    public var summary: String {
        let places = endpointsWithViolations
        let flowText = flows.map { ", \($0.violations) flow violation\($0.violations == 1 ? "" : "s")" } ?? ""
        return "\(requests) request\(requests == 1 ? "" : "s"), \(violations) violation\(violations == 1 ? "" : "s") in \(places) "
            + "endpoint\(places == 1 ? "" : "s"), \(endpointCoverage.covered)/\(endpointCoverage.total) endpoints covered" + flowText
    }

    /// The conditions of `conditions` that this run meets.
    public func met(_ conditions: Set<FailCondition>) -> [FailCondition] {
        FailCondition.allCases.filter { condition in
            guard conditions.contains(condition) else { return false }
            return switch condition {
            case .violations: violations > 0
            case .uncovered: endpointCoverage.covered < endpointCoverage.total
            case .flows: (flows?.violations ?? 0) > 0
            }
        }
    }
}

extension ContractReport {
    /// A file format of the report.
    public enum Format: String, Sendable, CaseIterable {
        case junit, json
    }

    /// The report in `format`; `failsUncovered` turns skipped endpoints into failures (JUnit).
    public func rendered(as format: Format, failsUncovered: Bool) -> [UInt8] {
        switch format {
        case .junit: Array(JUnitWriter(failsUncovered: failsUncovered).document(self).utf8)
        case .json: JSONWriter.bytes(json) + [0x0A]
        }
    }
}
