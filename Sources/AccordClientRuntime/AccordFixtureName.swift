import Foundation

/// One answer an endpoint has in the in-process mock (a fixture in `mocks/` or an example
/// in the contract), typed by the endpoint's response, so a test names only answers that
/// exist: `mock.prefer(API.signal.fixtures.inbox.names.lastPage)`.
public nonisolated struct FixtureName<Response>: Sendable, Hashable {
    /// The endpoint's id, such as `signal.inbox`.
    public let endpoint: String
    /// The fixture's or example's name, as written: `last-page`.
    public let name: String

    public init(endpoint: String, name: String) {
        self.endpoint = endpoint
        self.name = name
    }
}

nonisolated extension [MockRoute] {
    /// The answer named `name` of the endpoint `endpoint`; a trap naming the known answers
    /// when there is none, so a test never passes on an answer it did not ask for.
    func answer(_ name: String, of endpoint: String, asker: String) -> MockRoute.Answer {
        guard let route = first(where: { $0.id == endpoint }) else {
            preconditionFailure("\(asker): no endpoint '\(endpoint)'")
        }
        guard let answer = route.answers.first(where: { $0.name == name }) else {
            let known = route.answers.map { "'\($0.name)'" }.joined(separator: ", ")
            preconditionFailure("\(asker): \(endpoint) has no fixture or example '\(name)'; it has \(known.isEmpty ? "none" : known)")
        }
        return answer
    }
}
