/// Files every answered request in the journal: who sent it, what answered and why.
struct JournalStage: ResponseStage {
    let journal: any JournalStorage
    let clock: any ClockStorage

    func finish(_ response: inout MockResponse, for exchange: Exchange) {
        finish(&response, for: exchange, problems: [])
    }

    /// Files the request with how it, or the answer a proxy forwarded, broke the contract.
    func finish(_ response: inout MockResponse, for exchange: Exchange, problems: [JournalEntry.Problem]) {
        let request = exchange.request
        journal.add(JournalEntry(
            time: clock.now, wallTime: clock.wallNow, method: request.method, path: request.path, endpoint: response.summary.endpoint,
            parameters: exchange.parameters.sorted { $0.key < $1.key }.map { (name: $0.key, value: $0.value) },
            query: request.query, body: exchange.body.map { JournalEntry.Body($0, received: request.body.count) }, headers: JournalEntry.masked(request.headers),
            session: exchange.session, user: exchange.user, status: response.status, code: response.summary.code,
            answer: response.summary.source, injected: exchange.injected, verdict: response.summary.verdict, problems: problems
        ))
    }
}
