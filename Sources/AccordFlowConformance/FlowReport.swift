import AccordContract

/// What a run did with each declared flow, per endpoint that met one: how often it met
/// it, and each violation; the matrix a report shows.
public struct FlowReport: Sendable {
    /// One endpoint and flow: how often the endpoint met the flow's codes, what broke.
    public struct Cell: Sendable {
        public var pair: FlowPair
        public var exercised: Int
        public var violations: [FlowViolation]

        /// Met at least once, and never broken.
        public var conformed: Bool { exercised > 0 && violations.isEmpty }
    }

    /// Every pair met or broken, sorted by endpoint and flow.
    public var cells: [Cell]

    public var violations: Int { cells.reduce(0) { $0 + $1.violations.count } }
    /// Sessions forgotten to stay within ``FlowChecker/sessionLimit``.
    public var forgottenSessions: Int

    /// The report of a finished check.
    public init(_ checker: FlowChecker) {
        var cells: [FlowPair: Cell] = [:]
        for (pair, count) in checker.exercised { cells[pair] = Cell(pair: pair, exercised: count, violations: []) }
        for violation in checker.violations {
            let pair = FlowPair(endpoint: violation.endpoint, flow: violation.flow)
            cells[pair, default: Cell(pair: pair, exercised: 0, violations: [])].violations.append(violation)
        }
        self.cells = cells.values.sorted { $0.pair < $1.pair }
        forgottenSessions = checker.forgottenSessions
    }
}
