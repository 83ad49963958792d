/// The client every generated package carries (`Support/AccordClient.swift`): an actor
/// over URLSession that signs, unwraps the envelope and runs the flows of the
/// business-code table. Service-specific values come from the generated `Service`.
enum RuntimeClient {
    static func source(access: String) -> String {
        template.replacingOccurrences(of: "ACCESS ", with: access)
    }

    private static let template = #"""
    import Foundation
    #if canImport(FoundationNetworking)
    import FoundationNetworking
    #endif
    #if canImport(Security)
    import Security
    #endif

    /// The pair of tokens a login or refresh hands out.
    ACCESS struct Tokens: Codable, Hashable, Sendable {
        ACCESS var accessToken: String
        ACCESS var refreshToken: String

        ACCESS init(accessToken: String, refreshToken: String) {
            self.accessToken = accessToken
            self.refreshToken = refreshToken
        }
    }

    /// A response that carries tokens (login, refresh): the client stores them.
    ACCESS protocol TokenIssuing {
        var issuedTokens: Tokens { get }
    }

    extension Tokens: TokenIssuing {
        ACCESS var issuedTokens: Tokens { self }
    }

    /// Where tokens live between requests and launches.
    ACCESS protocol TokenStorage: Sendable {
        func load() async -> Tokens?
        func save(_ tokens: Tokens?) async
    }

    /// Tokens in memory, for tests and previews.
    ACCESS actor InMemoryTokenStorage: TokenStorage {
        private var tokens: Tokens?

        ACCESS init(_ tokens: Tokens? = nil) {
            self.tokens = tokens
        }

        ACCESS func load() async -> Tokens? { tokens }
        ACCESS func save(_ tokens: Tokens?) async { self.tokens = tokens }
    }

    #if canImport(Security)
    /// Tokens in the Keychain, as one generic-password item.
    ACCESS actor KeychainTokenStorage: TokenStorage {
        private let service: String

        ACCESS init(service: String) {
            self.service = service
        }

        ACCESS func load() async -> Tokens? {
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service,
                                        kSecReturnData as String: true, kSecMatchLimit as String: kSecMatchLimitOne]
            var item: CFTypeRef?
            guard SecItemCopyMatching(query as CFDictionary, &item) == errSecSuccess, let data = item as? Data else { return nil }
            return try? JSONDecoder().decode(Tokens.self, from: data)
        }

        ACCESS func save(_ tokens: Tokens?) async {
            let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service]
            SecItemDelete(query as CFDictionary)
            guard let tokens, let data = try? JSONEncoder().encode(tokens) else { return }
            var item = query
            item[kSecValueData as String] = data
            item[kSecAttrAccessible as String] = kSecAttrAccessibleAfterFirstUnlock
            SecItemAdd(item as CFDictionary, nil)
        }
    }
    #endif

    /// Why a call failed, told apart so the app can react to each.
    ACCESS enum APIError: Error, Sendable, CustomStringConvertible {
        /// A business code of the contract (`code != 0`), with its message and the whole envelope.
        case business(BusinessCode, message: String, envelope: Data?)
        /// 1008: the account is banned.
        case banned(BanInfo)
        /// 1006, 1007 or a failed refresh: the tokens are cleared; show the login.
        case sessionEnded(BusinessCode)
        /// No network.
        case offline
        case timeout
        /// A 4xx or 5xx answer without the envelope.
        case http(status: Int, body: String)
        /// The answer could not be read as the contract says.
        case undecodable(String)
        /// Another transport failure.
        case transport(String)

        ACCESS var description: String {
            switch self {
            case .business(let code, let message, _): "\(message) (\(code.rawValue))"
            case .banned(let info): "banned: \(info.reason)"
            case .sessionEnded(let code): "session ended (\(code.rawValue)); log in again"
            case .offline: "offline"
            case .timeout: "the request timed out"
            case .http(let status, let body): "HTTP \(status): \(body.prefix(200))"
            case .undecodable(let reason): "unreadable answer: \(reason)"
            case .transport(let reason): "network error: \(reason)"
            }
        }
    }

    /// Why the account is banned (`data.ban_info` of 1008).
    ACCESS struct BanInfo: Codable, Hashable, Sendable {
        ACCESS var reason: String
        ACCESS var until: String?
        ACCESS var appealURL: String?

        ACCESS init(reason: String, until: String? = nil, appealURL: String? = nil) {
            self.reason = reason
            self.until = until
            self.appealURL = appealURL
        }

        enum CodingKeys: String, CodingKey {
            case reason, until
            case appealURL = "appeal_url"
        }
    }

    /// What the app should be told, outside any one call.
    ACCESS enum ClientEvent: Sendable, Equatable {
        /// The tokens were cleared (1006, 1007, a failed refresh): go to login.
        case loggedOut(BusinessCode)
        case banned(BanInfo)
        /// A code whose flow is a global alert (3008 …), with its message.
        case alert(BusinessCode, String)
    }

    /// Who the client is, and where it calls.
    ACCESS struct ClientConfiguration: Sendable {
        /// The server, such as `https://api.example.com` (the base path is added).
        ACCESS var serverURL: URL
        ACCESS var appKey: String
        ACCESS var appSecret: String
        ACCESS var deviceID: String
        ACCESS var os: String
        ACCESS var appVersion: String
        ACCESS var language: String?
        ACCESS var timeout: TimeInterval

        ACCESS init(serverURL: URL, appKey: String, appSecret: String, deviceID: String, os: String = "ios",
                    appVersion: String, language: String? = nil, timeout: TimeInterval = 30) {
            self.serverURL = serverURL
            self.appKey = appKey
            self.appSecret = appSecret
            self.deviceID = deviceID
            self.os = os
            self.appVersion = appVersion
            self.language = language
            self.timeout = timeout
        }
    }

    /// Calls the API: signs every request, unwraps the envelope, refreshes an expired
    /// token once for all waiting calls and retries them, and ends the session when the
    /// server says so.
    ///
    /// ```swift
    /// let client = APIClient(configuration: configuration, storage: KeychainTokenStorage(service: "app"))
    /// let inbox = try await client.send(API.signal.inbox(limit: 20))
    /// ```
    ACCESS actor APIClient {
        ACCESS let configuration: ClientConfiguration
        private let storage: any TokenStorage
        private let session: URLSession
        private let refreshSession: URLSession
        private var refreshing: Task<Refresh, Never>?
        private let signer: RequestSigner
        /// Events for the app: logout, ban, alerts.
        ACCESS nonisolated let events: AsyncStream<ClientEvent>
        private let emit: AsyncStream<ClientEvent>.Continuation

        /// - Parameters:
        ///   - session: for API calls.
        ///   - refreshSession: for token refresh only, so no other behaviour wraps it.
        ACCESS init(configuration: ClientConfiguration, storage: any TokenStorage = InMemoryTokenStorage(),
                    session: URLSession = URLSession(configuration: .default),
                    refreshSession: URLSession = URLSession(configuration: .ephemeral)) {
            self.configuration = configuration
            self.storage = storage
            self.session = session
            self.refreshSession = refreshSession
            self.signer = RequestSigner(appKey: configuration.appKey, appSecret: configuration.appSecret)
            (events, emit) = AsyncStream.makeStream(of: ClientEvent.self)
        }

        /// Calls `endpoint` and returns its data.
        ACCESS func send<Response>(_ endpoint: Endpoint<Response>) async throws(APIError) -> Response {
            let used = await storage.load()
            var answer = try await perform(endpoint, tokens: used, on: session)
            if case .failure(let code) = answer, Service.refreshesAndRetries(code) {
                // Requests that failed after another call refreshed just retry with the new token.
                let current = await storage.load()
                let tokens: Tokens
                if let current, current != used {
                    tokens = current
                } else {
                    switch await refreshOnce() {
                    case .refreshed(let refreshed): tokens = refreshed
                    case .failed(let failure): throw APIError.sessionEnded(failure)
                    }
                }
                answer = try await perform(endpoint, tokens: tokens, on: session)
            }
            switch answer {
            case .success(let response):
                if let issuing = response as? TokenIssuing { await storage.save(issuing.issuedTokens) }
                return response
            case .failure(let code):
                throw await failure(code)
            }
        }

        /// The events of a streamed answer, as they arrive (on platforms without
        /// `URLSession.bytes`, such as Linux, once the answer is complete). An expired
        /// token is refreshed and the stream retried once, as for `send`.
        ACCESS nonisolated func stream<Event>(_ endpoint: StreamEndpoint<Event>) -> AsyncThrowingStream<Event, any Error> {
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
            var tokens = await storage.load()
            for attempt in 0..<2 {
                let (data, status) = try await exchange(endpoint.request, tokens: tokens, on: session)
                if let head = try? JSONDecoder().decode(Envelope<AccordEmpty>.self, from: data) {
                    let code = BusinessCode(rawValue: head.code)
                    lastMessage = head.message
                    lastData = data
                    if attempt == 0, Service.refreshesAndRetries(code) {
                        switch await refreshOnce() {
                        case .refreshed(let refreshed): tokens = refreshed; continue
                        case .failed(let failure): throw APIError.sessionEnded(failure)
                        }
                    }
                    throw await failure(code)
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
        ACCESS func signOut() async {
            await storage.save(nil)
        }

        // MARK: One exchange

        private enum Answer<Response> {
            case success(Response)
            case failure(BusinessCode)
        }

        /// The last envelope's message and data, for the error of a failed call.
        private var lastMessage = ""
        private var lastData: Data?

        private func perform<Response>(_ endpoint: Endpoint<Response>, tokens: Tokens?, on session: URLSession) async throws(APIError) -> Answer<Response> {
            let (data, status) = try await exchange(endpoint, tokens: tokens, on: session)
            guard let head = try? JSONDecoder().decode(Envelope<AccordEmpty>.self, from: data) else {
                if (400..<600).contains(status) { throw APIError.http(status: status, body: String(decoding: data, as: UTF8.self)) }
                throw APIError.undecodable("not the {\(Service.envelopeCode), \(Service.envelopeMessage), \(Service.envelopeData)} envelope")
            }
            guard head.code == 0 else {
                lastMessage = head.message
                lastData = data
                return .failure(BusinessCode(rawValue: head.code))
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
            var components = URLComponents(url: configuration.serverURL.appendingPathComponent(Service.basePath + endpoint.path),
                                           resolvingAgainstBaseURL: false)
            if !endpoint.query.isEmpty { components?.queryItems = endpoint.query.map { URLQueryItem(name: $0.name, value: $0.value) } }
            guard let url = components?.url else { throw APIError.transport("bad URL for \(endpoint.path)") }
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
                default: throw APIError.transport(error.localizedDescription)
                }
            } catch {
                throw APIError.transport(String(describing: error))
            }
        }

        // MARK: Flows

        /// How a refresh ended.
        private enum Refresh {
            case refreshed(Tokens)
            /// The session is over, with this code.
            case failed(BusinessCode)
        }

        /// One refresh for every caller; on failure the tokens are cleared.
        private func refreshOnce() async -> Refresh {
            if let refreshing { return await refreshing.value }
            let task = Task { () -> Refresh in
                guard let refreshToken = await storage.load()?.refreshToken, let call = Service.refresh(refreshToken) else {
                    await endSession(Service.refreshFailedCode)
                    return .failed(Service.refreshFailedCode)
                }
                switch try? await perform(call, tokens: nil, on: refreshSession) {
                case .success(let issued)?:
                    await storage.save(issued.issuedTokens)
                    return .refreshed(issued.issuedTokens)
                case .failure(let code)?:
                    await endSession(code)
                    return .failed(code)
                case nil:
                    await endSession(Service.refreshFailedCode)
                    return .failed(Service.refreshFailedCode)
                }
            }
            refreshing = task
            let outcome = await task.value
            refreshing = nil
            return outcome
        }

        private func endSession(_ code: BusinessCode) async {
            guard await storage.load() != nil else { return }
            await storage.save(nil)
            emit.yield(.loggedOut(code))
        }

        private func failure(_ code: BusinessCode) async -> APIError {
            if Service.endsSession(code) {
                await endSession(code)
                return .sessionEnded(code)
            }
            if Service.bans(code), let data = lastData, let info = try? JSONDecoder().decode(Envelope<BanData>.self, from: data).data {
                emit.yield(.banned(info.banInfo))
                return .banned(info.banInfo)
            }
            if Service.alerts(code) { emit.yield(.alert(code, lastMessage)) }
            return .business(code, message: lastMessage, envelope: lastData)
        }

        private struct BanData: Decodable {
            var banInfo: BanInfo
            enum CodingKeys: String, CodingKey { case banInfo = "ban_info" }
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

    """#
}
