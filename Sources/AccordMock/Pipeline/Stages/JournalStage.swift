import AccordContract
import AccordFlowConformance
import AccordHTTP
import AccordMockState
import Foundation

/// Files every answered request in the journal on its way out: who sent it, what
/// answered and why, and for a refusal each way the request broke the contract
/// (`/body/content`: …); and hands it to the live feed (`GET /__accord/events`).
struct JournalStage: Stage {
    let journal: any JournalStorage
    let clock: any ClockStorage
    let feed: JournalFeed
    /// The flow rules to hand each filed entry, with `--check-flows`.
    let flows: FlowMonitor?
    /// Whether this replica's adds feed the live feed; a shared journal feeds it itself.
    private let publishes: Bool

    init(journal: any JournalStorage, clock: any ClockStorage, feed: JournalFeed, flows: FlowMonitor? = nil) {
        self.journal = journal
        self.clock = clock
        self.feed = feed
        self.flows = flows
        publishes = !(journal is any SharedJournalStorage)
    }

    /// The header that says an answer was sent but not filed: the journal's storage failed.
    static let notFiledHeader = "X-Accord-Journal"

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        // The flow rules' times are kept only when they are checked: a request pays nothing for them otherwise.
        let sent = flows == nil ? 0 : Self.microseconds()
        var response = try next(&exchange)
        if flows != nil { exchange.timing = (sent, Self.microseconds() + Int64(response.delayMilliseconds) * 1_000) }
        // The engine wrote its JSON answers itself, compact; a fault's are broken on purpose.
        // Asked only while a stream listens: nothing else copies the body as it is.
        let ownJSON = feed.subscriberCount > 0 && response.summary.verdict != .fault && (response.header("Content-Type").map { ASCII.contains($0, "json") } ?? false)
        file(&response, for: exchange, problems: Self.problems(of: exchange), answerIsCompactJSON: ownJSON)
        return response
    }

    /// Unix microseconds of the real clock (the mock clock may be moved; the flow rules measure real time).
    static func microseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Int64(now.tv_sec) * 1_000_000 + Int64(now.tv_nsec) / 1_000
    }

    /// How the request broke its endpoint's contract, as its refusal typed it: each
    /// violation, or the refusal's message; none for a request refused before routing.
    static func problems(of exchange: Exchange) -> [JournalEntry.Problem] {
        guard let refusal = exchange.refusal, refusal.verdict.violatedRule != nil, exchange.route != nil else { return [] }
        guard !refusal.violations.isEmpty else { return [JournalEntry.Problem(side: .request, pointer: "", message: refusal.message)] }
        return refusal.violations.map { JournalEntry.Problem(side: .request, pointer: $0.pointer, message: $0.message) }
    }

    /// Files the request with how it, or the answer a proxy forwarded, broke the contract.
    /// The answer goes out whatever the journal's storage does: when filing fails, the
    /// answer says so in ``notFiledHeader`` instead of losing the entry silently.
    /// - Parameter answerIsCompactJSON: whether the answer's body is compact JSON this server wrote.
    func file(_ response: inout MockResponse, for exchange: Exchange, problems: [JournalEntry.Problem], answerIsCompactJSON: Bool = false) {
        do {
            try add(response, for: exchange, problems: problems, answerIsCompactJSON: answerIsCompactJSON)
        } catch {
            response.headers.append((Self.notFiledHeader, "not filed: \(error)"))
        }
    }

    private func add(_ response: MockResponse, for exchange: Exchange, problems: [JournalEntry.Problem],
                     answerIsCompactJSON: Bool) throws(StorageError) {
        let request = exchange.request
        let entry = try journal.add(JournalEntry(
            time: try clock.now, wallTime: try clock.wallNow, method: request.method, path: request.path, endpoint: exchange.route?.endpoint.id,
            parameters: exchange.parameters.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            query: request.query, body: exchange.body.map { JournalEntry.Body($0, received: request.body.count) }, headers: request.headers,
            session: exchange.session, user: exchange.user, status: response.status, code: response.summary.code,
            answer: response.summary.source, injected: exchange.injection?.source, verdict: response.summary.verdict, problems: problems,
            response: JournalEntry.Response(response.body, isCompactJSON: answerIsCompactJSON),
            sentMicroseconds: exchange.timing?.sent, answeredMicroseconds: exchange.timing?.answered,
            tokenTag: flows == nil ? nil : request.headers["authorization"].flatMap(TokenTag.of(authorization:)),
            fault: exchange.fault?.description
        ), judgedBy: flows)
        if publishes { feed.publish(entry) }
    }
}
