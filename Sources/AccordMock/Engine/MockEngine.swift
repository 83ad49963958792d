import AccordContract
import AccordFlowConformance
import AccordHTTP
import AccordMockState
import AccordMocksFormat
import AccordReport
import AccordValidation

/// The mock backend as a pure function of (contract, fixtures, shared state, request)
/// → response. The HTTP adapter only moves bytes; everything a client can observe is
/// decided here, so it is tested in-process without a socket.
///
/// A request goes through a ``Pipeline`` of small stages, each with one job
/// (``Stages/mock(fixtures:scenarios:collections:)`` lists them; docs/architecture.md
/// draws them). The control API under `/__accord/` is answered beside the pipeline.
///
/// A class of constants: every request and every reader shares one engine by reference
/// (copying a struct of its size cost a request about 1.5k instructions).
public final class MockEngine: Sendable {
    public let contract: Contract
    public let options: MockOptions
    public let state: MockState
    /// Scenarios by name, from `mocks/scenarios/`.
    public let scenarios: [String: Scenario]
    /// Each endpoint's fixtures as the journal and the report name them (`fixture:NAME`).
    public let fixtureLabels: [String: [String]]
    /// Collections by name, from `mocks/collections/`.
    public let collections: [String: CollectionDefinition]
    /// How large each request's body may be; the transport asks before reading one.
    public let bodyLimits: BodyLimits
    /// The flow rules held to the journal as it is filed, with `checksFlows`; nil otherwise.
    public let flows: FlowMonitor?
    let pipeline: Pipeline
    /// What every request meets first, the control API's and storage's too: framing and
    /// the body's limits (the pipeline runs the same stages for API requests).
    private let gates: Pipeline

    /// Where uploaded files are written and served back (``StoredFile/pathPrefix``).
    public static let storagePrefix = StoredFile.pathPrefix

    /// The header that names the session a request belongs to.
    static let sessionHeader = "x-accord-session"

    public init(contract: Contract, fixtures: FixtureSet, scenarios: [String: Scenario] = [:], collections: [String: CollectionDefinition] = [:],
                options: MockOptions = MockOptions(), state: MockState) {
        self.contract = contract
        self.collections = collections
        self.options = options
        self.state = state
        // The built-in exercises are named as scenarios are; no file may take their names (lint refuses them).
        let scenarios = scenarios.merging(FlowExercise.placeholders) { _, builtIn in builtIn }
        self.scenarios = scenarios
        fixtureLabels = fixtures.byEndpoint.mapValues { $0.map { "fixture:" + $0.name } }
        let router = Router(contract: contract)
        bodyLimits = BodyLimits(contract: contract, router: router, json: options.maxBodyBytes)
        let stages = Stages(contract: contract, options: options, router: router, bodyLimits: bodyLimits, nonces: state.nonces, clock: state.clock)
        gates = Pipeline(stages: stages.gates)
        flows = options.checksFlows ? FlowMonitor(rules: FlowRules(contract: contract)) : nil
        pipeline = Pipeline(stages: stages.mock(state: state, fixtures: fixtures, scenarios: scenarios, collections: collections, flows: flows))
    }

    /// Answers one request.
    public func handle(_ request: MockRequest) -> MockResponse {
        state.storage.beginRequest()
        let control = request.path.hasPrefix(Self.controlPrefix)
        guard control || request.path.hasPrefix(Self.storagePrefix) else { return pipeline.run(request) }
        // No control call or upload runs on a message whose framing or size the transport refused.
        let (refusal, exchange) = gates.process(request)
        guard exchange.passed else { return refusal }
        guard !control else { return self.control(request) }
        do {
            return try storage(request)
        } catch {
            return storageUnavailable(error)
        }
    }

    /// The report of every request the server answered so far. With a shared journal the
    /// flows are every replica's, judged now over the entries it keeps (none when it
    /// cannot be read: a report of this replica's part alone would be wrong).
    public func report(title: String = "accord serve") -> ContractReport {
        var report = ContractReport(title: title, contract: contract, answers: fixtureLabels, observed: state.observations.snapshot)
        if let flows {
            report.flows = isJournalShared ? try? sharedJournal(judgedBy: flows).report : flows.report()
        }
        return report
    }

    /// The journal's entries that `filter` lets through, the last `limit` of them, oldest
    /// first, each with the flow rules it broke; a shared journal's are judged as they are
    /// read here, over every replica's entries.
    func journalEntries(matching filter: JournalFilter, limit: Int) throws(StorageError) -> [JournalEntry] {
        guard let flows, isJournalShared else { return try state.journal.entries(matching: filter, limit: limit) }
        return Array(try sharedJournal(judgedBy: flows).entries.filter(filter.admits).suffix(max(0, limit)))
    }

    /// Whether several replicas file into the journal (`--storage redis://…`).
    private var isJournalShared: Bool { state.journal is any SharedJournalStorage }

    /// Every entry the shared journal keeps, judged by `flows` afresh, and what they show.
    private func sharedJournal(judgedBy flows: FlowMonitor) throws(StorageError) -> (entries: [JournalEntry], report: FlowReport) {
        var entries = try state.journal.entries(matching: JournalFilter(), limit: state.journal.capacity)
        let report = flows.judge(&entries)
        return (entries, report)
    }
}
