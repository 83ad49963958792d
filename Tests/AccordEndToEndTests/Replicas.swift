import AccordJSON
import AccordSync
import AccordTesting
import TongbanAPI
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Three `accord serve` processes on one Redis, as replicas behind a load balancer.
struct Replicas {
    let redis: RedisServer
    let servers: [ServerProcess]
    let storage: String
    /// The replicas' key prefix in Redis.
    let prefix: String

    /// - Parameter redis: the Redis to share; the tests' shared instance by default.
    init(count: Int = 3, redis: RedisServer? = nil, arguments: [String] = []) throws {
        let redis = try redis ?? RedisServer.shared()
        self.redis = redis
        let url = redis.url("replicas")
        let storage = url.description
        self.storage = storage
        prefix = url.prefix
        servers = try (0..<count).map { index in
            try ServerProcess(arguments: ["--quiet", "--no-reload", "--storage", storage, "--replica", "r\(index)"] + arguments)
        }
    }

    subscript(index: Int) -> ServerProcess { servers[index % servers.count] }

    /// A signed request's envelope and status; `headers` replaces the signed ones (a replay).
    @discardableResult
    static func send(_ server: ServerProcess, _ method: String, _ target: String, body: String? = nil, token: String? = nil,
                     headers: [String: String]? = nil, session: String? = nil) async throws -> (status: Int, envelope: JSONValue?) {
        var request = URLRequest(url: URL(string: server.baseURL + target)!)
        request.httpMethod = method
        request.httpBody = body.map { Data($0.utf8) }
        var fields = headers ?? ServeEndToEndTests.signedHeaders(target, body: body, token: token)
        if let session { fields["X-Accord-Session"] = session }
        for (name, value) in fields { request.setValue(value, forHTTPHeaderField: name) }
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, try? JSONReader.read(Array(data)))
    }

    /// Logs in on `server`: the access and refresh tokens and the user's id.
    static func login(_ server: ServerProcess) async throws -> (access: String, refresh: String, uid: Int) {
        let envelope = try await send(server, "POST", "/api/v1/auth/login/phone", body: ServeEndToEndTests.loginBody).envelope
        guard case .string(let access)? = envelope?.value(at: "/data/access_token"), case .string(let refresh)? = envelope?.value(at: "/data/refresh_token"),
              case .int(let uid)? = envelope?.value(at: "/data/user/uid") else { throw ServerProcess.LaunchError(description: "login failed: \(String(describing: envelope))") }
        return (access, refresh, uid)
    }

    /// `session`'s entries as `server` lists them, once it lists `count` (or after a second):
    /// each replica writes its entries off the request path, so within a moment they are everyone's.
    static func journal(on server: ServerProcess, session: String, count: Int) async throws -> [JSONValue] {
        var entries: [JSONValue] = []
        for _ in 0..<50 {
            entries = try await Control(server: server).journal(session: session)
            if entries.count == count { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        return entries
    }

    /// `entries` in the order their calls were answered (`answered_us`): a journal lists them
    /// as each replica's writer reached Redis, which need not be that order.
    static func inAnsweredOrder(_ entries: [JSONValue]) -> [JSONValue] {
        entries.sorted { first, second in
            guard case .int(let a)? = first["answered_us"], case .int(let b)? = second["answered_us"] else { return false }
            return a < b
        }
    }

    static func code(_ answer: (status: Int, envelope: JSONValue?)) -> Int? {
        if case .int(let code)? = answer.envelope?["code"] { code } else { nil }
    }
}

/// A transport that sends each request to the next replica in turn: the client never
/// talks to the same server twice in a row.
final class RoundRobinTransport: Transport, @unchecked Sendable {
    private let ports: [Int]
    private let next = Locked(0)
    private let inner = URLSessionTransport()

    init(_ replicas: Replicas) {
        ports = replicas.servers.map { Int($0.port) }
    }

    private func redirected(_ request: URLRequest) -> URLRequest {
        let index = next.withLock { value in
            defer { value += 1 }
            return value
        }
        var request = request
        var parts = URLComponents(url: request.url!, resolvingAgainstBaseURL: false)!
        parts.port = ports[index % ports.count]
        request.url = parts.url
        return request
    }

    func send(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        try await inner.send(redirected(request))
    }

    func open(_ request: URLRequest) async throws -> (HTTPURLResponse, AsyncThrowingStream<Data, any Error>) {
        try await inner.open(redirected(request))
    }
}
