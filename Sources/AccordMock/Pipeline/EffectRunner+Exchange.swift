import AccordContract
import AccordHTTP
import AccordJSON
import AccordMockState
import AccordValidation

extension EffectRunner {
    /// The answer for a refusal, in the contract's envelope; a storage failure is thrown on.
    func response(for refusal: Refusal, label: String, exchange: inout Exchange) throws(StorageError) -> MockResponse {
        switch refusal {
        case .storage(let error):
            throw error
        case .missing(let code, let collection, let key):
            let detail = key.map { "no record with key '\($0)' in '\(collection)' for this session" } ?? "no record in '\(collection)' for this session"
            var response = envelopes.answer(code: code, fallback: detail,
                                            data: .object([.init("error", .string("not_found")), .init("message", .string(detail))]), verdict: .ok)
            response.summary.source = label
            return response
        case .badCursor(let text):
            return invalidQuery(&exchange, parameter: "cursor", expected: "a cursor this server issued for this list and session",
                                actual: JSONWriter.string(.string(String(text.prefix(80)))), message: "the cursor was never issued by this server for this list; start again without one")
        case .badPage(let parameter, let value):
            return invalidQuery(&exchange, parameter: parameter, expected: "a whole number from 1 to \(Self.maxPageNumber)",
                                actual: JSONWriter.string(.string(String(value.prefix(80)))), message: "'\(parameter)' is not a page this list can answer")
        case .unfit(let collection, let problem):
            return envelopes.refusal(status: 500, kind: "mock_effect_failed",
                                     "the fixture made a record that '\(collection)' cannot hold: \(problem)", verdict: .error)
        }
    }

    private func invalidQuery(_ exchange: inout Exchange, parameter: String, expected: String, actual: String, message: String) -> MockResponse {
        let violation = Violation(pointer: "/query/\(parameter.jsonPointerEscaped)", expected: expected, actual: actual, message: message)
        return envelopes.refuse(&exchange, status: nil, kind: "invalid_request", message, violations: [violation], verdict: .invalid)
    }
}
