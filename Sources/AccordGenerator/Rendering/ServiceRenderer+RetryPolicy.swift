import AccordContract

extension ServiceRenderer {
    /// `RetryPolicy.contract`: the contract's `flows.retry`, with the methods the client knows.
    func writeRetryPolicy(into writer: inout SwiftWriter) {
        let policy = contract.service.flows.retry
        let methods = Endpoint.Method.allCases.filter { policy.methods.contains($0.rawValue) }.map { ".\($0.rawValue.lowercased())" }
        writer.line()
        writer.block("extension RetryPolicy") { writer in
            writer.line("/// The contract's retry policy (`flows.retry`).")
            writer.line("\(access)static let contract = RetryPolicy(attempts: \(policy.attempts), backoff: \(Self.seconds(policy.backoffMilliseconds)), "
                        + "maxBackoff: \(Self.seconds(policy.maxBackoffMilliseconds)), methods: [\(methods.joined(separator: ", "))])")
        }
    }

    /// Milliseconds as a Swift literal of seconds: `0.2`, `2`.
    private static func seconds(_ milliseconds: Int) -> String {
        milliseconds.isMultiple(of: 1_000) ? String(milliseconds / 1_000) : String(Double(milliseconds) / 1_000)
    }
}
