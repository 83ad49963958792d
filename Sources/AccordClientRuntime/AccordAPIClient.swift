import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls the API: signs every request (when the contract signs), unwraps the envelope
/// (or reads a plain API's answer and error status), refreshes an expired token once
/// for all waiting calls and retries them, and ends the session when the server says so.
///
/// ```swift
/// let client = APIClient(configuration: configuration, storage: KeychainTokenStorage(service: "app"))
/// let inbox = try await client.send(API.signal.inbox(limit: 20))
/// ```
///
/// The generated code names it for its contract: `APIClient` is `AccordAPIClient<Service>`.
public actor AccordAPIClient<Service: AccordContractService>: AccordAPISending {
    public typealias APIError = AccordAPIError<Service>
    public typealias ClientEvent = AccordClientEvent<Service>
    public typealias BusinessCode = Service.Code
    public typealias BanPayload = Service.BanPayload
    public typealias ClientConfiguration = Service.Configuration

    public let configuration: ClientConfiguration
    private let storage: any TokenStorage
    private let transport: any Transport
    // accord:if signing
    private let clock: @Sendable () -> Date
    private let nonce: @Sendable () -> String
    private let signer: RequestSigner
    // accord:end
    private var refreshing: Task<Refresh, Never>?
    /// The session's generation: a session that ends or is signed out moves it on, and
    /// what a call from an older generation finds cannot end or restore anything.
    private var generation = 0
    private let broadcast = EventBroadcast<ClientEvent>()

    /// The most bytes an answer to a stream request may hold when it is not a stream
    /// (an envelope with a business code).
    private nonisolated static var refusalLimit: Int { 1 << 20 }

    /// Events for the app (logout, ban, alerts): each access is a new listener that gets
    /// every event from then on, so several screens can listen at once.
    public nonisolated var events: AsyncStream<ClientEvent> { broadcast.stream() }

    /// - Parameter transport: what requests go through; `URLSessionTransport()` by default.
    public init(configuration: ClientConfiguration, storage: any TokenStorage = InMemoryTokenStorage(),
                transport: any Transport = URLSessionTransport()) {
        self.configuration = configuration
        self.storage = storage
        self.transport = transport
        // accord:if signing
        clock = { Date() }
        nonce = AccordAPIClient.randomNonce
        signer = RequestSigner(appKey: configuration.appKey, appSecret: configuration.appSecret)
        // accord:end
    }
    // accord:if signing

    /// - Parameters:
    ///   - transport: what requests go through; `URLSessionTransport()` by default.
    ///   - clock: the time the `X-Timestamp` header is taken from.
    ///   - nonce: a new `X-Nonce` per request; 32 random hex digits by default.
    public init(configuration: ClientConfiguration, storage: any TokenStorage = InMemoryTokenStorage(),
                transport: any Transport = URLSessionTransport(),
                clock: @escaping @Sendable () -> Date = { Date() },
                nonce: @escaping @Sendable () -> String = AccordAPIClient.randomNonce) {
        self.configuration = configuration
        self.storage = storage
        self.transport = transport
        self.clock = clock
        self.nonce = nonce
        self.signer = RequestSigner(appKey: configuration.appKey, appSecret: configuration.appSecret)
    }

    /// 32 random lowercase hex digits.
    @Sendable public nonisolated static func randomNonce() -> String {
        UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    }
    // accord:end

    /// Calls `endpoint` and returns its data.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws(APIError) -> Response {
        if Task.isCancelled { throw .cancelled }
        try await waitForRefresh()
        let generation = self.generation
        let used = try await loadTokens()
        var answer = try await perform(endpoint, tokens: used)
        if case .failure(let refusal) = answer, Service.refreshesAndRetries(refusal.code) {
            answer = try await perform(endpoint, tokens: try await tokens(replacing: used))
        }
        switch answer {
        case .success(let response):
            if let issuing = response as? TokenIssuing { try await saveTokens(issuing.issuedTokens) }
            return response
        case .failure(let refusal):
            throw await failure(refusal, since: generation)
        }
    }

    /// The events of a streamed answer, as they arrive. An expired token is refreshed
    /// and the stream retried once, as for `send`; cancelling the consuming task closes
    /// the connection.
    public nonisolated func stream<Event>(_ endpoint: StreamEndpoint<Event>) -> AsyncThrowingStream<Event, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do throws(APIError) {
                    try await self.deliver(endpoint, to: continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// Clears the tokens (after a logout call, say).
    public func signOut() async throws(APIError) {
        generation += 1
        try await saveTokens(nil)
    }

    // MARK: One exchange

    private enum Answer<Response> {
        case success(Response)
        case failure(Refusal)
    }

    /// A business code (or a plain API's error status) with its own answer's message and
    /// body, carried with the call it answered (never kept on the actor, where another
    /// call could overwrite it).
    private struct Refusal {
        var code: BusinessCode
        var message: String
        var envelope: Data
    }

    /// One call's answer, retried after a fault as ``ClientConfiguration/retryPolicy``
    /// says: each retry signed anew, after the policy's wait (or the server's
    /// `Retry-After`, when it is within the policy). A refresh is never retried: its
    /// caller decides what a failed one means.
    private func perform<Response>(_ endpoint: Endpoint<Response>, tokens: Tokens?, refreshing: Bool = false) async throws(APIError) -> Answer<Response> {
        var retries = 0
        while true {
            var serverAsks: TimeInterval?
            let failure: APIError
            do {
                let (data, response) = try await exchange(endpoint, tokens: tokens, refreshing: refreshing)
                do { return try Self.answer(data, response: response, as: Response.self) } catch {
                    (failure, serverAsks) = (error, RetryPolicy.retryAfter(response))
                }
            } catch {
                failure = error
            }
            retries += 1
            guard !refreshing, let wait = configuration.retryPolicy.delay(beforeRetry: retries, of: endpoint, after: failure, serverAsks: serverAsks) else {
                throw failure
            }
            do { try await Task.sleep(nanoseconds: UInt64(wait * 1_000_000_000)) } catch { throw .cancelled }
        }
    }

    /// Sends `endpoint` once, as a new signed request.
    private func exchange<Response>(_ endpoint: Endpoint<Response>, tokens: Tokens?, refreshing: Bool) async throws(APIError) -> (Data, HTTPURLResponse) {
        let request = try request(for: endpoint, tokens: tokens)
        let transport = transport
        if let form = endpoint.multipart {
            let file: URL
            do { file = try form.writeToTemporaryFile() } catch { throw APIError.transport("cannot write the multipart body of \(endpoint.id): \(error)") }
            defer { try? FileManager.default.removeItem(at: file) }
            return try await Self.withinTimeout(configuration.timeout) { try await transport.upload(request, fromFile: file) }
        }
        return try await Self.withinTimeout(configuration.timeout) {
            try await refreshing ? transport.sendRefresh(request) : transport.send(request)
        }
    }

    /// What `operation` returns, or `.timeout` once `seconds` have passed: the client's
    /// own deadline, the same through every transport and platform (Linux's URLSession
    /// does not apply `URLRequest.timeoutInterval`). The operation is cancelled when it
    /// loses the race.
    private nonisolated static func withinTimeout<Value: Sendable>(_ seconds: TimeInterval,
                                                       _ operation: @escaping @Sendable () async throws -> Value) async throws(APIError) -> Value {
        let nanoseconds = UInt64(max(0, min(seconds, 86_400)) * 1_000_000_000)
        do {
            return try await withThrowingTaskGroup(of: Value?.self) { group in
                group.addTask { try await operation() }
                group.addTask {
                    try await Task.sleep(nanoseconds: nanoseconds)
                    return nil
                }
                defer { group.cancelAll() }
                guard let first = try await group.next(), let value = first else { throw APIError.timeout }
                return value
            }
        } catch {
            throw apiError(error)
        }
    }

    /// The envelope of an answer read: its data, or the business code that refused it. A
    /// binary endpoint's success is its bytes (``AccordBinary``); its failures are envelopes.
    /// Without an envelope, a 2xx answer is the data itself and an error status the code
    /// the contract's table gives it (``Service/errorCode(status:body:)``).
    private nonisolated static func answer<Response: Decodable>(_ data: Data, response: HTTPURLResponse, as type: Response.Type) throws(APIError) -> Answer<Response> {
        let status = response.statusCode
        let contentType = response.value(forHTTPHeaderField: "Content-Type") ?? ""
        if Response.self == AccordBinary.self, (200..<300).contains(status), !contentType.contains("json"),
           let bytes = AccordBinary(data: data, contentType: contentType) as? Response {
            return .success(bytes)
        }
        guard Service.usesEnvelope else { return try plainAnswer(data, status: status, as: type) }
        guard let head = try? JSONDecoder().decode(Envelope<Service, AccordEmpty>.self, from: data) else {
            if (400..<600).contains(status) { throw APIError.http(status: status, body: String(decoding: data, as: UTF8.self)) }
            throw APIError.undecodable("not the {\(Service.envelopeCode), \(Service.envelopeMessage), \(Service.envelopeData)} envelope")
        }
        guard head.code == 0 else {
            return .failure(Refusal(code: BusinessCode(rawValue: head.code), message: head.message, envelope: data))
        }
        do {
            let envelope = try JSONDecoder().decode(Envelope<Service, Response>.self, from: data)
            if let value = envelope.data { return .success(value) }
            return .success(try JSONDecoder().decode(Response.self, from: Data("{}".utf8)))
        } catch {
            throw APIError.undecodable(String(describing: error))
        }
    }

    /// A plain API's answer: an error status is the code the table gives it (or
    /// ``APIError/http(status:body:)`` when it gives none); a success is the data.
    private nonisolated static func plainAnswer<Response: Decodable>(_ data: Data, status: Int, as type: Response.Type) throws(APIError) -> Answer<Response> {
        if (400..<600).contains(status) {
            guard let code = Service.errorCode(status: status, body: data) else {
                throw APIError.http(status: status, body: String(decoding: data.prefix(4_096), as: UTF8.self))
            }
            return .failure(Refusal(code: code, message: ErrorMembers.message(in: data) ?? Service.message(code), envelope: data))
        }
        do {
            return .success(try JSONDecoder().decode(Response.self, from: data.isEmpty ? Data("{}".utf8) : data))
        } catch {
            throw APIError.undecodable(String(describing: error))
        }
    }

    /// The signed request for `endpoint`: the body in canonical JSON, signed from the
    /// same bytes that are sent; the query escaped to RFC 3986's unreserved characters,
    /// so `+` cannot turn into a space; the path's parameters already escaped once
    /// (`Endpoint.segment`).
    private func request<Response>(for endpoint: Endpoint<Response>, tokens: Tokens?) throws(APIError) -> URLRequest {
        guard var components = URLComponents(url: configuration.serverURL, resolvingAgainstBaseURL: false) else {
            throw APIError.transport("bad server URL \(configuration.serverURL)")
        }
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = base + Service.basePath + endpoint.path
        let query = endpoint.query + configuration.queryItems(requiresAuth: endpoint.requiresAuth)
        if !query.isEmpty {
            components.percentEncodedQuery = query.map { Endpoint<Response>.queryComponent($0.name) + "=" + Endpoint<Response>.queryComponent($0.value) }
                .joined(separator: "&")
        }
        guard let url = components.url else { throw APIError.transport("bad URL for \(endpoint.path)") }
        var request = URLRequest(url: url, timeoutInterval: configuration.timeout)
        request.httpMethod = endpoint.method.rawValue
        var body: CanonicalJSON?
        if let value = endpoint.body {
            do { body = try CanonicalJSON(parsing: Array(JSONEncoder().encode(value))) } catch {
                throw APIError.undecodable("cannot encode the body of \(endpoint.id): \(error)")
            }
            request.httpBody = body.map { Data($0.bytes) }
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        } else if let form = endpoint.multipart {
            // The text parts are signed as the members of a JSON body of strings would be.
            body = .object(form.fields.map { (key: $0.name, value: CanonicalJSON.string($0.value)) })
            request.setValue(form.contentType, forHTTPHeaderField: "Content-Type")
        }
        var headers: [(String, String)] = []
        // accord:if signing
        let timestamp = String(Int64(clock().timeIntervalSince1970.rounded(.down)))
        let nonce = nonce()
        headers = [
            (Service.appKeyHeader, configuration.appKey), (Service.timestampHeader, timestamp), (Service.nonceHeader, nonce),
            (Service.signatureHeader, signer.signature(timestamp: timestamp, nonce: nonce,
                                                       sortedParams: RequestSigner.sortedParams(query: query, body: body))),
        ]
        // accord:end
        headers += configuration.headers(requiresAuth: endpoint.requiresAuth) + endpoint.headers.map { ($0.name, $0.value) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if Service.usesTokens, endpoint.requiresAuth, let tokens {
            request.setValue("\(Service.authScheme) \(tokens.accessToken)", forHTTPHeaderField: Service.authHeader)
        }
        return request
    }

    /// What a transport's failure means to the app.
    private nonisolated static func apiError(_ error: any Error) -> APIError {
        switch error {
        case let error as APIError:
            return error
        case let error as URLError:
            switch error.code {
            case .notConnectedToInternet, .networkConnectionLost, .cannotConnectToHost, .dataNotAllowed: return .offline
            case .timedOut: return .timeout
            case .cancelled: return .cancelled
            default: return .transport(error.localizedDescription)
            }
        case is CancellationError:
            return .cancelled
        default:
            return .transport(String(describing: error))
        }
    }

    // MARK: Streams

    private func deliver<Event>(_ endpoint: StreamEndpoint<Event>, to continuation: AsyncThrowingStream<Event, any Error>.Continuation) async throws(APIError) {
        try await waitForRefresh()
        let generation = self.generation
        var tokens = try await loadTokens()
        for attempt in 0..<2 {
            let request = try request(for: endpoint.request, tokens: tokens)
            let transport = transport
            let (head, chunks) = try await Self.withinTimeout(configuration.timeout) { try await transport.open(request) }
            guard Self.isEventStream(head) else {
                // Not a stream: an envelope with a business code, or an HTTP error.
                let data = try await Self.collect(chunks, limit: Self.refusalLimit)
                switch try Self.answer(data, response: head, as: AccordEmpty.self) {
                case .success:
                    throw APIError.undecodable("\(endpoint.request.id) answered JSON, not text/event-stream")
                case .failure(let refusal):
                    if attempt == 0, Service.refreshesAndRetries(refusal.code) {
                        tokens = try await self.tokens(replacing: tokens)
                        continue
                    }
                    throw await failure(refusal, since: generation)
                }
            }
            guard (200..<300).contains(head.statusCode) else { throw APIError.http(status: head.statusCode, body: "") }
            var parser = ServerSentEventParser()
            do {
                for try await chunk in chunks {
                    for event in try parser.feed(chunk) {
                        if event.data == "[DONE]" { return }
                        do {
                            continuation.yield(try JSONDecoder().decode(Event.self, from: Data(event.data.utf8)))
                        } catch {
                            throw APIError.undecodable("event of \(endpoint.request.id): \(error)")
                        }
                    }
                }
            } catch {
                throw Self.apiError(error)
            }
            return
        }
    }

    private nonisolated static func isEventStream(_ head: HTTPURLResponse) -> Bool {
        let type = head.value(forHTTPHeaderField: "Content-Type") ?? ""
        return type.lowercased().hasPrefix("text/event-stream")
    }

    /// The whole body, refused beyond `limit` bytes.
    private nonisolated static func collect(_ chunks: AsyncThrowingStream<Data, any Error>, limit: Int) async throws(APIError) -> Data {
        var data = Data()
        do {
            for try await chunk in chunks {
                data.append(chunk)
                guard data.count <= limit else { throw APIError.undecodable("the answer is larger than \(limit) bytes") }
            }
        } catch {
            throw apiError(error)
        }
        return data
    }

    // MARK: Flows

    /// How a refresh ended.
    private enum Refresh {
        case refreshed(Tokens)
        /// What every caller waiting on it gets.
        case failed(APIError)
    }

    /// Holds a call made while a refresh is under way until it ends, so that the call
    /// goes out once, with the new token, instead of spending a round trip on the old one.
    private func waitForRefresh() async throws(APIError) {
        guard let refreshing else { return }
        if case .failed(let error) = await CancellableWait.value(of: refreshing) ?? .failed(.cancelled) { throw error }
    }

    /// The tokens to retry a call with after its token was refused: the ones another
    /// call's refresh already stored, else those of a refresh (one for every caller).
    private func tokens(replacing used: Tokens?) async throws(APIError) -> Tokens {
        if let current = try await loadTokens(), current != used { return current }
        switch await refreshOnce() {
        case .refreshed(let refreshed): return refreshed
        case .failed(let error): throw error
        }
    }

    /// One refresh for every caller. Only an answer whose code ends a session clears the
    /// tokens; offline, a timeout, a 5xx, another business code or storage that cannot
    /// be read keep them for the next try.
    private func refreshOnce() async -> Refresh {
        if let refreshing { return await CancellableWait.value(of: refreshing) ?? .failed(.cancelled) }
        let task = Task { () -> Refresh in
            // Runs on the actor; whoever started it may stop waiting, so the task itself
            // clears `refreshing` when it ends.
            defer { refreshing = nil }
            let generation = self.generation
            do throws(APIError) {
                guard let refreshToken = try await loadTokens()?.refreshToken, let call = Service.refresh(refreshToken) else {
                    await endSession(Service.refreshFailedCode, since: generation)
                    return .failed(.sessionEnded(Service.refreshFailedCode))
                }
                switch try await perform(call, tokens: nil, refreshing: true) {
                case .success(let issued):
                    // Signed out (or ended) while refreshing: the new tokens must not bring the session back.
                    guard generation == self.generation else { return .failed(.sessionEnded(Service.refreshFailedCode)) }
                    try await saveTokens(issued.issuedTokens)
                    return .refreshed(issued.issuedTokens)
                case .failure(let refusal):
                    return .failed(await failure(refusal, since: generation))
                }
            } catch {
                return .failed(error)
            }
        }
        refreshing = task
        return await CancellableWait.value(of: task) ?? .failed(.cancelled)
    }

    /// Ends the session a call began in, once: concurrent calls answered 1006 log out
    /// once, and a call from before a sign-out or an earlier end changes nothing. The
    /// app is told even when storage fails to forget the tokens: the server has ended
    /// the session either way.
    private func endSession(_ code: BusinessCode, since generation: Int) async {
        guard generation == self.generation else { return }
        self.generation += 1
        let hadTokens: Bool
        do { hadTokens = try await storage.load() != nil } catch { hadTokens = true }
        guard hadTokens else { return }
        try? await storage.save(nil)
        broadcast.send(.loggedOut(code))
    }

    private func loadTokens() async throws(APIError) -> Tokens? {
        do { return try await storage.load() } catch { throw APIError.storage(String(describing: error)) }
    }

    private func saveTokens(_ tokens: Tokens?) async throws(APIError) {
        do { try await storage.save(tokens) } catch { throw APIError.storage(String(describing: error)) }
    }

    private func failure(_ refusal: Refusal, since generation: Int) async -> APIError {
        let code = refusal.code
        if Service.endsSession(code) {
            await endSession(code, since: generation)
            return .sessionEnded(code)
        }
        if Service.bans(code), let payload = Service.payload(BanPayload.self, in: refusal.envelope) {
            broadcast.send(.banned(payload))
            return .banned(payload)
        }
        if Service.alerts(code) { broadcast.send(.alert(code, refusal.message)) }
        return .business(code, message: refusal.message, envelope: refusal.envelope)
    }
}
