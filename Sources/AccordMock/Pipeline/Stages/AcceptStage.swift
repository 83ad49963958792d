import AccordHTTP
import AccordMockState
/// The last stage of a check without answers (``RequestChecker``): a request that got
/// this far keeps to the contract.
struct AcceptStage: Stage {
    func respond(to exchange: inout Exchange, next: Next) throws(StorageError) -> MockResponse {
        MockResponse(status: 200, summary: .init(verdict: .ok))
    }
}
