import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordReport

/// Counts every answered request for the run's report on its way out: the endpoint,
/// what answered, the code, and, for a request that broke the contract, its refusal's
/// details (the violations with their JSON pointers, `sorted_params` for a bad
/// signature). Requests a test injected never count as violations.
struct ReportStage: Stage {
    let observations: Observations

    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        let response = try next(&exchange)
        if response.summary.verdict.isObserved { observations.record(Self.observation(of: response, for: exchange)) }
        return response
    }

    /// How a report counts `response` to `exchange`.
    static func observation(of response: MockResponse, for exchange: Exchange) -> Observation {
        let summary = response.summary
        let request = exchange.request
        let injected = exchange.injection != nil || request.headers[InjectionStage.header] != nil
        var observation = Observation(endpoint: exchange.route?.endpoint.id, method: request.method, path: request.path, answer: summary.source,
                                      code: summary.code, injected: injected)
        guard let refusal = exchange.refusal, let rule = refusal.verdict.violatedRule, !injected else { return observation }
        var details: [JSONValue.Member] = [
            .init("method", .string(request.method)), .init("path", .string(request.path)), .init("session", .string(exchange.session)),
            .init("status", .int(response.status)),
        ]
        if let code = summary.code { details.append(.init("code", .int(code))) }
        details += refusal.details
        let kind = summary.code.map { "\(rule) (\($0))" } ?? "\(rule) (HTTP \(response.status))"
        observation.failures = [Observation.Failure(side: .request, kind: kind, message: refusal.message, details: .object(details))]
        return observation
    }
}
