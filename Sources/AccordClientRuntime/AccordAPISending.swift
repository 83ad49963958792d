import Foundation

/// What a view model needs of the API: ``APIClient`` in the app, ``MockAPIClient`` in
/// its unit tests. The generated code names it for its contract:
/// `APISending` is `AccordAPISending<Service>`.
public protocol AccordAPISending<Service>: Sendable {
    associatedtype Service: AccordContractService


    /// Calls `endpoint` and returns its data.
    func send<Response>(_ endpoint: Endpoint<Response>) async throws(AccordAPIError<Service>) -> Response
    /// The events of a streamed answer, as they arrive.
    func stream<Event>(_ endpoint: StreamEndpoint<Event>) -> AsyncThrowingStream<Event, any Error>
    /// Forgets the session's tokens.
    func signOut() async throws(AccordAPIError<Service>)
    /// Events for the app (logout, ban, alerts); each access is a new listener.
    var events: AsyncStream<AccordClientEvent<Service>> { get }
}
