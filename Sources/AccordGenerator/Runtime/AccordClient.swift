import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Calls the API: signs every request, unwraps the envelope, refreshes an expired
/// token once for all waiting calls and retries them, and ends the session when the
/// server says so.
///
/// ```swift
/// let client = APIClient(configuration: configuration, storage: KeychainTokenStorage(service: "app"))
/// let inbox = try await client.send(API.signal.inbox(limit: 20))
/// ```
public actor APIClient {
    public let configuration: ClientConfiguration
    private let storage: any TokenStorage
    private let session: URLSession
    private let refreshSession: URLSession
    private var refreshing: Task<Refresh, Never>?
    /// The session's generation: a session that ends or is signed out moves it on, and
    /// what a call from an older generation finds cannot end or restore anything.
    private var generation = 0
    private let signer: RequestSigner
    private let broadcast = EventBroadcast<ClientEvent>()

    /// Events for the app (logout, ban, alerts): each access is a new listener that gets
    /// every event from then on, so several screens can listen at once.
    public nonisolated var events: AsyncStream<ClientEvent> { broadcast.stream() }

    /// - Parameters:
    ///   - session: for API calls.
    ///   - refreshSession: for token refresh only, so no other behaviour wraps it.
    public init(configuration: ClientConfiguration, storage: any TokenStorage = InMemoryTokenStorage(),
                session: URLSession = URLSession(configuration: .default),
                refreshSession: URLSession = URLSession(configuration: .ephemeral)) {
        self.configuration = configuration
        self.storage = storage
        self.session = session
        self.refreshSession = refreshSession
        self.signer = RequestSigner(appKey: configuration.appKey, appSecret: configuration.appSecret)
    }

    /// Calls `endpoint` and returns its data.
    public func send<Response>(_ endpoint: Endpoint<Response>) async throws(APIError) -> Response {
        if Task.isCancelled { throw .cancelled }
        try await waitForRefresh()
        let generation = self.generation
        let used = await storage.load()
        var answer = try await perform(endpoint, tokens: used, on: session)
        if case .failure(let refusal) = answer, Service.refreshesAndRetries(refusal.code) {
            // Requests that failed after another call refreshed just retry with the new token.
            let current = await storage.load()
            let tokens: Tokens
            if let current, current != used {
                tokens = current
            } else {
                switch await refreshOnce() {
                case .refreshed(let refreshed): tokens = refreshed
                case .failed(let error): throw error
                }
            }
            answer = try await perform(endpoint, tokens: tokens, on: session)
        }
        switch answer {
        case .success(let response):
            if let issuing = response as? TokenIssuing { await storage.save(issuing.issuedTokens) }
            return response
        case .failure(let refusal):
            throw await failure(refusal, since: generation)
        }
    }

    /// The events of a streamed answer, as they arrive (on platforms without
    /// `URLSession.bytes`, such as Linux, once the answer is complete). An expired
    /// token is refreshed and the stream retried once, as for `send`.
    public nonisolated func stream<Event>(_ endpoint: StreamEndpoint<Event>) -> AsyncThrowingStream<Event, any Error> {
        AsyncThrowingStream { continuation in
            let task = Task {
                do {
                    try await self.deliver(endpoint, to: continuation)
                    continuation.finish()
                } catch {
                    continuation.finish(throwing: error)
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    private func deliver<Event>(_ endpoint: StreamEndpoint<Event>, to continuation: AsyncThrowingStream<Event, any Error>.Continuation) async throws(APIError) {
        try await waitForRefresh()
        let generation = self.generation
        var tokens = await storage.load()
        for attempt in 0..<2 {
            let (data, status) = try await exchange(endpoint.request, tokens: tokens, on: session)
            if let head = try? JSONDecoder().decode(Envelope<AccordEmpty>.self, from: data) {
                let refusal = Refusal(code: BusinessCode(rawValue: head.code), message: head.message, envelope: data)
                if attempt == 0, Service.refreshesAndRetries(refusal.code) {
                    switch await refreshOnce() {
                    case .refreshed(let refreshed): tokens = refreshed; continue
                    case .failed(let error): throw error
                    }
                }
                throw await failure(refusal, since: generation)
            }
            guard (200..<300).contains(status) else { throw APIError.http(status: status, body: String(decoding: data, as: UTF8.self)) }
            for line in String(decoding: data, as: UTF8.self).split(separator: "\n") where line.hasPrefix("data: ") {
                let payload = line.dropFirst(6)
                if payload == "[DONE]" { return }
                do {
                    continuation.yield(try JSONDecoder().decode(Event.self, from: Data(payload.utf8)))
                } catch {
                    throw APIError.undecodable("event: \(error)")
                }
            }
            return
        }
    }

    /// Clears the tokens (after a logout call, say).
    public func signOut() async {
        generation += 1
        await storage.save(nil)
    }

    // MARK: One exchange

    private enum Answer<Response> {
        case success(Response)
        case failure(Refusal)
    }

    /// A business code with its own answer's message and envelope, carried with the
    /// call it answered (never kept on the actor, where another call could overwrite it).
    private struct Refusal {
        var code: BusinessCode
        var message: String
        var envelope: Data
    }

    private func perform<Response>(_ endpoint: Endpoint<Response>, tokens: Tokens?, on session: URLSession) async throws(APIError) -> Answer<Response> {
        let (data, status) = try await exchange(endpoint, tokens: tokens, on: session)
        guard let head = try? JSONDecoder().decode(Envelope<AccordEmpty>.self, from: data) else {
            if (400..<600).contains(status) { throw APIError.http(status: status, body: String(decoding: data, as: UTF8.self)) }
            throw APIError.undecodable("not the {\(Service.envelopeCode), \(Service.envelopeMessage), \(Service.envelopeData)} envelope")
        }
        guard head.code == 0 else {
            return .failure(Refusal(code: BusinessCode(rawValue: head.code), message: head.message, envelope: data))
        }
        do {
            let envelope = try JSONDecoder().decode(Envelope<Response>.self, from: data)
            if let value = envelope.data { return .success(value) }
            return .success(try JSONDecoder().decode(Response.self, from: Data("{}".utf8)))
        } catch {
            throw APIError.undecodable(String(describing: error))
        }
    }

    private func exchange<Response>(_ endpoint: Endpoint<Response>, tokens: Tokens?, on session: URLSession) async throws(APIError) -> (Data, Int) {
        // The path's parameters are escaped once already (Endpoint.segment); the query is
        // escaped here to RFC 3986's unreserved characters, so `+` cannot turn into a space.
        guard var components = URLComponents(url: configuration.serverURL, resolvingAgainstBaseURL: false) else {
            throw APIError.transport("bad server URL \(configuration.serverURL)")
        }
        let base = components.percentEncodedPath.hasSuffix("/") ? String(components.percentEncodedPath.dropLast()) : components.percentEncodedPath
        components.percentEncodedPath = base + Service.basePath + endpoint.path
        if !endpoint.query.isEmpty {
            components.percentEncodedQuery = endpoint.query.map { Endpoint<Response>.queryComponent($0.name) + "=" + Endpoint<Response>.queryComponent($0.value) }
                .joined(separator: "&")
        }
        guard let url = components.url else { throw APIError.transport("bad URL for \(endpoint.path)") }
        var request = URLRequest(url: url, timeoutInterval: configuration.timeout)
        request.httpMethod = endpoint.method.rawValue
        var body: Data?
        if let value = endpoint.body {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            do { body = try encoder.encode(value) } catch { throw APIError.undecodable("cannot encode the body: \(error)") }
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        let timestamp = String(Int(Date().timeIntervalSince1970))
        let nonce = UUID().uuidString.replacingOccurrences(of: "-", with: "")
        let headers: [(String, String)] = [
            (Service.appKeyHeader, configuration.appKey), (Service.timestampHeader, timestamp), (Service.nonceHeader, nonce),
            (Service.signatureHeader, signer.signature(timestamp: timestamp, nonce: nonce,
                                                       sortedParams: RequestSigner.sortedParams(query: endpoint.query, body: body))),
            ("X-Device-Id", configuration.deviceID), ("X-OS", configuration.os), ("X-App-Version", configuration.appVersion),
        ] + (configuration.language.map { [("X-Language", $0)] } ?? []) + endpoint.headers.map { ($0.name, $0.value) }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        if endpoint.requiresAuth, let tokens { request.setValue("\(Service.authScheme) \(tokens.accessToken)", forHTTPHeaderField: Service.authHeader) }
        do {
            let (data, response) = try await session.data(for: request)
            return (data, (response as? HTTPURLResponse)?.statusCode ?? 0)
        } catch let error as URLError {
            switch error.code {
            case .notConnectedToInternet, .networkConnectionLost, .cannotConnectToHost: throw APIError.offline
            case .timedOut: throw APIError.timeout
            case .cancelled: throw APIError.cancelled
            default: throw APIError.transport(error.localizedDescription)
            }
        } catch is CancellationError {
            throw APIError.cancelled
        } catch {
            throw APIError.transport(String(describing: error))
        }
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

    /// One refresh for every caller. Only an answer whose code ends a session clears the
    /// tokens; offline, a timeout, a 5xx or another business code keep them for the next try.
    private func refreshOnce() async -> Refresh {
        if let refreshing { return await CancellableWait.value(of: refreshing) ?? .failed(.cancelled) }
        let task = Task { () -> Refresh in
            // Runs on the actor; whoever started it may stop waiting, so the task itself
            // clears `refreshing` when it ends.
            defer { refreshing = nil }
            let generation = self.generation
            guard let refreshToken = await storage.load()?.refreshToken, let call = Service.refresh(refreshToken) else {
                await endSession(Service.refreshFailedCode, since: generation)
                return .failed(.sessionEnded(Service.refreshFailedCode))
            }
            do throws(APIError) {
                switch try await perform(call, tokens: nil, on: refreshSession) {
                case .success(let issued):
                    // Signed out (or ended) while refreshing: the new tokens must not bring the session back.
                    guard generation == self.generation else { return .failed(.sessionEnded(Service.refreshFailedCode)) }
                    await storage.save(issued.issuedTokens)
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
    /// once, and a call from before a sign-out or an earlier end changes nothing.
    private func endSession(_ code: BusinessCode, since generation: Int) async {
        guard generation == self.generation else { return }
        self.generation += 1
        guard await storage.load() != nil else { return }
        await storage.save(nil)
        broadcast.send(.loggedOut(code))
    }

    private func failure(_ refusal: Refusal, since generation: Int) async -> APIError {
        let code = refusal.code
        if Service.endsSession(code) {
            await endSession(code, since: generation)
            return .sessionEnded(code)
        }
        if Service.bans(code), let info = try? JSONDecoder().decode(Envelope<BanData>.self, from: refusal.envelope).data {
            broadcast.send(.banned(info.banInfo))
            return .banned(info.banInfo)
        }
        if Service.alerts(code) { broadcast.send(.alert(code, refusal.message)) }
        return .business(code, message: refusal.message, envelope: refusal.envelope)
    }
}

/// The envelope, with the member names the contract gives it.
struct Envelope<Payload: Decodable>: Decodable {
    var code: Int
    var message: String
    var data: Payload?

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        code = try container.decode(Int.self, forKey: Key(stringValue: Service.envelopeCode))
        message = try container.decodeIfPresent(String.self, forKey: Key(stringValue: Service.envelopeMessage)) ?? ""
        data = try container.decodeIfPresent(Payload.self, forKey: Key(stringValue: Service.envelopeData))
    }
}
