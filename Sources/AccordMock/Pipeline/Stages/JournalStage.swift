import AccordContract

/// Files every answered request in the journal: who sent it, what answered and why;
/// and hands it to the live feed (`GET /__accord/events`).
struct JournalStage: ResponseStage {
    let journal: any JournalStorage
    let clock: any ClockStorage
    let feed: JournalFeed
    /// The envelope's member names, to read a refusal's violations.
    let envelope: Service.Envelope

    /// Files the request; a refusal with each way the request broke the contract (`/body/content`: …).
    func finish(_ response: inout MockResponse, for exchange: Exchange) {
        let refused = response.summary.verdict.violatedRule != nil && response.summary.endpoint != nil
        // The engine wrote its JSON answers itself, compact; a fault's are broken on purpose.
        // Asked only while a stream listens: nothing else copies the body as it is.
        let ownJSON = feed.subscriberCount > 0 && response.summary.verdict != .fault && (response.header("Content-Type")?.contains("json") ?? false)
        finish(&response, for: exchange, problems: refused ? JournalEntry.Problem.request(refusal: response, envelope: envelope) : [],
               answerIsCompactJSON: ownJSON)
    }

    /// Files the request with how it, or the answer a proxy forwarded, broke the contract.
    /// - Parameter answerIsCompactJSON: whether the answer's body is compact JSON this server wrote.
    func finish(_ response: inout MockResponse, for exchange: Exchange, problems: [JournalEntry.Problem], answerIsCompactJSON: Bool = false) {
        let request = exchange.request
        let entry = journal.add(JournalEntry(
            time: clock.now, wallTime: clock.wallNow, method: request.method, path: request.path, endpoint: response.summary.endpoint,
            parameters: exchange.parameters.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            query: request.query, body: exchange.body.map { JournalEntry.Body($0, received: request.body.count) }, headers: JournalEntry.masked(request.headers),
            session: exchange.session, user: exchange.user, status: response.status, code: response.summary.code,
            answer: response.summary.source, injected: exchange.injected, verdict: response.summary.verdict, problems: problems,
            response: JournalEntry.Response(response.body, isCompactJSON: answerIsCompactJSON)
        ))
        feed.publish(entry)
    }
}
