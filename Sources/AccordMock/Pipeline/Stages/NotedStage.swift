import AccordHTTP
import AccordMockState

/// Runs a check whose refusal is noted, not answered (``ForwardingGate/Mode/report``):
/// a request it refuses goes on to the stages after it with ``Exchange/refusal`` set;
/// one that is not routed goes no further and passes (the proxy forwards it). The first
/// refusal is the one noted: once one is, later checks are not run.
struct NotedStage: Stage {
    let check: any Stage

    init(_ check: any Stage) {
        self.check = check
    }

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        guard exchange.noted == nil else { return try next(&exchange) }
        let response = try check.respond(to: &exchange, next: .end)
        guard exchange.passed else {
            exchange.noted = response
            return exchange.route == nil ? try Next.end(&exchange) : try next(&exchange)
        }
        exchange.passed = false
        return try next(&exchange)
    }
}

/// Lets requests of one method pass unjudged (the proxy forwards `OPTIONS` as it came).
struct UnjudgedStage: Stage {
    let method: String

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        exchange.request.method == method ? try Next.end(&exchange) : try next(&exchange)
    }
}
