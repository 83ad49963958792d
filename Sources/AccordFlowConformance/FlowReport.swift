import AccordContract

/// What a run did with each declared flow, per endpoint that met one: how often it met
/// it, and each violation; the matrix a report shows.
public struct FlowReport: Sendable {
    /// One endpoint and flow: how often the endpoint met the flow's codes, what broke,
    /// and whether the contract declares the pair.
    public struct Cell: Sendable {
        public var pair: FlowPair
        public var exercised: Int
        public var violations: [FlowViolation]
        public var declared = false

        /// Met at least once, and never broken.
        public var conformed: Bool { exercised > 0 && violations.isEmpty }
    }

    /// Every pair the contract declares, met or broken, sorted by endpoint and flow.
    public var cells: [Cell]

    public var violations: Int { cells.reduce(0) { $0 + $1.violations.count } }
    /// The declared pairs, and how many of them the run met.
    public var declaredCount: Int { cells.filter(\.declared).count }
    public var exercisedDeclaredCount: Int { cells.filter { $0.declared && $0.exercised > 0 }.count }
    /// Sessions forgotten to stay within ``FlowChecker/sessionLimit``.
    public var forgottenSessions: Int
    /// Every rule with how many requests it was put to, and how many broke it.
    public var rules: [(rule: FlowViolation.Rule, checked: Int, broken: Int)]

    /// The report of a finished check.
    public init(_ checker: FlowChecker) {
        var cells: [FlowPair: Cell] = [:]
        for pair in checker.rules.declared { cells[pair] = Cell(pair: pair, exercised: 0, violations: [], declared: true) }
        for (pair, count) in checker.exercised { cells[pair, default: Cell(pair: pair, exercised: 0, violations: [])].exercised = count }
        for violation in checker.violations {
            let pair = FlowPair(endpoint: violation.endpoint, flow: violation.flow)
            cells[pair, default: Cell(pair: pair, exercised: 0, violations: [])].violations.append(violation)
        }
        self.cells = cells.values.sorted { $0.pair < $1.pair }
        forgottenSessions = checker.forgottenSessions
        rules = FlowViolation.Rule.allCases.map { rule in
            (rule, checker.checks[rule] ?? 0, checker.violations.filter { $0.rule == rule }.count)
        }
    }
}
