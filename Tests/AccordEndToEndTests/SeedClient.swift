import AccordContract
import AccordJSON
import AccordTesting
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A client that behaves as the seed's iOS client does (seed 000 §9.2–9.3): on 1002 or
/// 1005 it refreshes once, single-flight, and retries every waiting request with the
/// new token; a failed refresh, 1006 or 1007 clear the tokens; 1008 surfaces
/// `ban_info`. Written for the tests, independently of the generator.
actor SeedClient {
    enum Failure: Error, Equatable {
        case loggedOut(code: Int)
        case banned(JSONValue)
        case business(code: Int)
    }

    let server: ServerProcess
    let session: String
    /// A scenario to run for this session (sent on every call after login).
    let scenario: String?
    private(set) var accessToken: String?
    private(set) var refreshToken: String?
    private var refreshing: Task<Bool, Never>?
    /// What the app was told: `logout`, `ban`.
    private(set) var notifications: [String] = []

    init(server: ServerProcess, session: String, scenario: String? = nil) {
        self.server = server
        self.session = session
        self.scenario = scenario
    }

    func login() async throws {
        let envelope = try await send("POST", "/api/v1/auth/login/phone", body: ServeEndToEndTests.loginBody, token: nil, inScenario: false)
        guard case .string(let access)? = envelope.value(at: "/data/access_token"),
              case .string(let refresh)? = envelope.value(at: "/data/refresh_token") else { throw Failure.business(code: -1) }
        accessToken = access
        refreshToken = refresh
    }

    /// One API call with the seed's flows; returns `data`.
    func call(_ method: String, _ target: String, body: String? = nil) async throws -> JSONValue? {
        let used = accessToken
        var envelope = try await send(method, target, body: body, token: used)
        if case .int(let code)? = envelope["code"], code == 1002 || code == 1005 {
            // Someone may have refreshed while this request was out: then just retry.
            let refreshed = accessToken != used ? true : await refreshOnce()
            guard refreshed else { throw Failure.loggedOut(code: 1007) }
            envelope = try await send(method, target, body: body, token: accessToken)
        }
        guard case .int(let code)? = envelope["code"] else { throw Failure.business(code: -1) }
        switch code {
        case 0: return envelope["data"]
        case 1006, 1007:
            clearTokens()
            throw Failure.loggedOut(code: code)
        case 1008:
            notifications.append("ban")
            throw Failure.banned(envelope.value(at: "/data/ban_info") ?? .null)
        default:
            throw Failure.business(code: code)
        }
    }

    /// Refreshes once; callers arriving meanwhile wait for the same refresh.
    private func refreshOnce() async -> Bool {
        if let refreshing { return await refreshing.value }
        let task = Task { () -> Bool in
            guard let token = refreshToken,
                  let envelope = try? await send("POST", "/api/v1/auth/token/refresh", body: #"{"refresh_token":"\#(token)"}"#, token: nil),
                  case .string(let access)? = envelope.value(at: "/data/access_token"),
                  case .string(let refresh)? = envelope.value(at: "/data/refresh_token") else {
                clearTokens()
                return false
            }
            accessToken = access
            refreshToken = refresh
            return true
        }
        refreshing = task
        let result = await task.value
        refreshing = nil
        return result
    }

    private func clearTokens() {
        if accessToken != nil { notifications.append("logout") }
        accessToken = nil
        refreshToken = nil
    }

    /// A signed request on its own URLSession (the refresh uses no interceptors).
    private func send(_ method: String, _ target: String, body: String?, token: String?, inScenario: Bool = true) async throws -> JSONValue {
        var request = URLRequest(url: URL(string: server.baseURL + target)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        var headers = ServeEndToEndTests.signedHeaders(target, body: body, token: token)
        headers["X-Accord-Session"] = session
        if inScenario, let scenario { headers["X-Accord-Scenario"] = scenario }
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let (data, _) = try await URLSession.shared.data(for: request)
        return try JSONReader.read(Array(data))
    }
}

/// Calls the control API of a server.
struct Control {
    let server: ServerProcess
    var adminToken: String?

    @discardableResult
    func call(_ method: String, _ path: String, _ body: String? = nil) async throws -> (Int, JSONValue?) {
        var request = URLRequest(url: URL(string: server.baseURL + "/__accord/" + path)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        if let adminToken { request.setValue(adminToken, forHTTPHeaderField: "X-Accord-Admin-Token") }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, try? JSONReader.read(Array(data)))
    }

    /// The journal's entries of `session`.
    func journal(session: String) async throws -> [JSONValue] {
        guard case .array(let entries)? = try await call("GET", "requests?session=\(session)").1?["requests"] else { return [] }
        return entries
    }
}
