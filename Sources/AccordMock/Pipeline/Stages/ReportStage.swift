import AccordContract
import AccordJSON
import AccordReport

/// Counts every answered request for the run's report: the endpoint, what answered,
/// the code, and, for a request that broke the contract, the refusal's details (the
/// violations with their JSON pointers, `sorted_params` for a bad signature).
/// Requests a test injected never count as violations.
struct ReportStage: ResponseStage {
    let observations: Observations
    let envelope: Service.Envelope
    let router: Router

    func finish(_ response: inout MockResponse, for exchange: Exchange) {
        guard response.summary.verdict.isObserved else { return }
        observations.record(Self.observation(of: response, for: exchange, envelope: envelope, router: router))
    }

    /// How a report counts `response` to `exchange`. A request refused before routing
    /// (bad framing, a body over the limit) is filed under its endpoint when it has one.
    static func observation(of response: MockResponse, for exchange: Exchange, envelope names: Service.Envelope, router: Router) -> Observation {
        let summary = response.summary
        let request = exchange.request
        let injected = exchange.injected != nil || request.headers[InjectionStage.header] != nil
        var endpoint = summary.endpoint
        if endpoint == nil, summary.verdict == .tooLarge || summary.verdict == .malformed,
           case .endpoint(let matched, _) = router.match(method: request.method, path: request.path) {
            endpoint = matched.id
        }
        var observation = Observation(endpoint: endpoint, method: request.method, path: request.path, answer: summary.source,
                                      code: summary.code, injected: injected)
        guard let rule = summary.verdict.violatedRule, !injected else { return observation }
        let envelope = response.json
        var details: [JSONValue.Member] = [
            .init("method", .string(request.method)), .init("path", .string(request.path)), .init("session", .string(exchange.session)),
            .init("status", .int(response.status)),
        ]
        if let code = summary.code { details.append(.init("code", .int(code))) }
        if case .object(let members)? = envelope?[names.data] { details += members }
        let message = envelope?[names.message].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? rule
        let kind = summary.code.map { "\(rule) (\($0))" } ?? "\(rule) (HTTP \(response.status))"
        observation.failures = [Observation.Failure(side: .request, kind: kind, message: message, details: .object(details))]
        return observation
    }
}
