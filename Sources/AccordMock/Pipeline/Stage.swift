import AccordHTTP
import AccordMockState
/// One step of a request's path through the engine (``Pipeline``), in the shape of
/// Hummingbird's middleware: it ends the request with an answer, or asks the rest of
/// the path for one (`next`) and may act on that answer on its way back.
///
/// A stage that ends a request with a refusal says why in the exchange
/// (``Envelopes/refuse(_:status:kind:_:extra:violations:verdict:)``), so the journal,
/// the report and the live feed read the typed refusal instead of the answer's body.
/// A storage operation that fails propagates as a ``StorageError`` up to
/// ``StorageGuardStage``, which answers it.
protocol Stage: Sendable {
    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse
}

/// The stages after the one running: calling it runs them and returns their answer.
/// Past the last stage the exchange is marked as having passed every stage
/// (``Exchange/passed``): the check pipelines end there; in a pipeline that answers,
/// it is a bug in the stage list, answered with a 500.
struct Next {
    private let stages: [any Stage]
    private let index: Int

    init(_ stages: [any Stage], from index: Int = 0) {
        self.stages = stages
        self.index = index
    }

    /// A path with no stage left: the exchange passes at once.
    static let end = Next([])

    /// What the end of the path answers: made once, since the check pipelines (the control
    /// API's gates, the proxy's noted checks) reach it on every request and read only
    /// ``Exchange/passed``.
    private static let unanswered = MockResponse(status: 500, headers: [("Content-Type", "text/plain; charset=utf-8")],
                                                 body: .bytes(Array("no stage answered the request".utf8)), summary: .init(verdict: .error))

    func callAsFunction(_ exchange: inout Exchange) throws(StorageError) -> MockResponse {
        guard index < stages.count else {
            exchange.passed = true
            return Self.unanswered
        }
        return try stages[index].respond(to: &exchange, next: Next(stages, from: index + 1))
    }
}

/// The ordered stages a request goes through (``Stages`` builds them for each use).
struct Pipeline: Sendable {
    var stages: [any Stage]

    /// What a storage failure no stage answered gets (one outside ``StorageGuardStage``,
    /// such as the journal's own): made once.
    private static let storageFailed = MockResponse(status: 503, headers: [("Content-Type", "text/plain; charset=utf-8"), ("Retry-After", "1")],
                                                    body: .bytes(Array("the server's storage is unavailable".utf8)),
                                                    summary: .init(verdict: .storageUnavailable))

    /// The answer and what the stages learned of the request on the way; the answer's
    /// summary names the endpoint the request was routed to.
    func process(_ request: MockRequest) -> (response: MockResponse, exchange: Exchange) {
        var exchange = Exchange(request: request)
        let response = answer(&exchange)
        return (response, exchange)
    }

    /// The answer to `request`, without handing back the exchange (a copy the server's
    /// path does not need: a thousand instructions of retains and releases).
    func run(_ request: MockRequest) -> MockResponse {
        var exchange = Exchange(request: request)
        return answer(&exchange)
    }

    private func answer(_ exchange: inout Exchange) -> MockResponse {
        var response: MockResponse
        do {
            response = try Next(stages)(&exchange)
        } catch {
            response = Self.storageFailed
        }
        response.summary.endpoint = exchange.route?.endpoint.id
        return response
    }
}
