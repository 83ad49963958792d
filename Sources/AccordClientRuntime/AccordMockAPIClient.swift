import Foundation

/// An ``APISending`` for an app's unit tests: answers each endpoint with the handler a
/// test gives it and records every call, with no server and no network.
///
/// ```swift
/// let api = MockAPIClient()
/// await api.respond(to: API.signal.inbox()) { _ in SignalInbox(items: [], unreadCount: 0) }
/// await api.fail(API.signal.publish(.init(content: "hi", isFlash: false)), with: .business(.quota, message: "今日信号已达上限", envelope: nil))
/// let model = InboxModel(api: api)
/// await model.load()
/// #expect(await api.calls.map(\.id) == ["signal.inbox"])
/// ```
///
/// The generated code names it for its contract: `MockAPIClient` is `AccordMockAPIClient<Service>`.
public actor AccordMockAPIClient<Service: AccordContractService>: AccordAPISending {
    public typealias APIError = AccordAPIError<Service>
    public typealias ClientEvent = AccordClientEvent<Service>
    public typealias BusinessCode = Service.Code

    /// A call the code under test made.
    public struct Call: Sendable, Hashable {
        /// The endpoint's id, such as `signal.inbox`.
        public var id: String
        public var method: HTTPMethod
        /// The path below the base path, as it would be sent.
        public var path: String
        public var query: [QueryItem]
        /// The body in the canonical JSON the client would send, if any.
        public var body: String?
    }

    private typealias Handler = @Sendable (any Sendable) async throws -> any Sendable

    /// Every call so far, in order.
    public private(set) var calls: [Call] = []
    private var handlers: [String: Handler] = [:]
    private var streams: [String: [any Sendable]] = [:]
    private let broadcast = EventBroadcast<ClientEvent>()

    public nonisolated var events: AsyncStream<ClientEvent> { broadcast.stream() }

    private let routes: [MockRoute]

    /// - Parameter routes: where ``respond(with:)`` finds fixtures; the generated ones by default.
    public init(routes: [MockRoute] = Service.mockRoutes) {
        self.routes = routes
    }

    /// Answers every later call of the endpoint `sample` names (by its id, whatever its
    /// parameters) with what `handler` returns for that call, or the error it throws (an
    /// ``APIError`` as it is, any other as `.transport`).
    public func respond<Response>(to sample: Endpoint<Response>,
                                  with handler: @escaping @Sendable (Endpoint<Response>) async throws -> Response) {
        let id = sample.id
        handlers[id] = { endpoint in
            guard let endpoint = endpoint as? Endpoint<Response> else {
                throw APIError.undecodable("MockAPIClient: \(id) was answered as \(Response.self)")
            }
            return try await handler(endpoint)
        }
    }

    /// Answers every later call of the endpoint `fixture` belongs to with that fixture or
    /// example: its typed value, or for a refusal `APIError.business` with its code and the
    /// message of the fixture or the code table. A name these routes lack stops the test.
    public func respond<Response: Sendable>(with fixture: FixtureName<Response>) {
        let answer = routes.answer(fixture.name, of: fixture.endpoint, asker: "MockAPIClient.respond(with:)")
        let id = fixture.endpoint
        guard let value = answer.value else {
            let code = BusinessCode(rawValue: answer.code)
            let error = APIError.business(code, message: answer.message ?? Service.message(code), envelope: nil)
            handlers[id] = { _ in throw error }
            return
        }
        handlers[id] = { _ in
            guard let response = value() as? Response else {
                throw APIError.undecodable("MockAPIClient: the fixture '\(fixture.name)' of \(id) is not a \(Response.self)")
            }
            return response
        }
    }

    /// Fails every later call of the endpoint `sample` names with `error`.
    public func fail<Response>(_ sample: Endpoint<Response>, with error: APIError) {
        respond(to: sample) { _ in throw error }
    }

    /// Answers every later stream of the endpoint `sample` names with `events`, then ends it.
    public func respond<Event>(to sample: StreamEndpoint<Event>, with events: [Event]) {
        streams[sample.request.id] = events
    }

    /// Sends `event` to every listener of ``events``, as the client would after a 1006 or a 1008.
    public func emit(_ event: ClientEvent) {
        broadcast.send(event)
    }

    public func send<Response>(_ endpoint: Endpoint<Response>) async throws(APIError) -> Response {
        record(endpoint)
        guard let handler = handlers[endpoint.id] else {
            throw APIError.transport("MockAPIClient has no answer for \(endpoint.id)")
        }
        let answer: any Sendable
        do { answer = try await handler(endpoint) } catch let error as APIError { throw error } catch {
            throw APIError.transport(String(describing: error))
        }
        guard let response = answer as? Response else {
            throw APIError.undecodable("MockAPIClient: the answer for \(endpoint.id) is not a \(Response.self)")
        }
        return response
    }

    public nonisolated func stream<Event>(_ endpoint: StreamEndpoint<Event>) -> AsyncThrowingStream<Event, any Error> {
        AsyncThrowingStream { continuation in
            Task {
                let events = await self.streamEvents(endpoint)
                guard let events else {
                    continuation.finish(throwing: APIError.transport("MockAPIClient has no stream for \(endpoint.request.id)"))
                    return
                }
                for event in events { continuation.yield(event) }
                continuation.finish()
            }
        }
    }

    public func signOut() async throws(APIError) {}

    private func streamEvents<Event>(_ endpoint: StreamEndpoint<Event>) -> [Event]? {
        record(endpoint.request)
        return streams[endpoint.request.id]?.compactMap { $0 as? Event }
    }

    private func record<Response>(_ endpoint: Endpoint<Response>) {
        let body = endpoint.body.flatMap { try? CanonicalJSON(parsing: Array(JSONEncoder().encode($0))) }.map { String(decoding: $0.bytes, as: UTF8.self) }
        calls.append(Call(id: endpoint.id, method: endpoint.method, path: endpoint.path, query: endpoint.query, body: body))
    }
}
