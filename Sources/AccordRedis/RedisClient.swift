import AccordSync

/// Redis for many threads: a pool of connections, each lent to one thread at a time,
/// reconnecting with backoff after a failure, and Lua scripts run by their SHA-1 with
/// the source sent only when Redis does not hold them (after a restart).
///
/// A command whose connection broke is not retried: its outcome is unknown, and the
/// operations here (a nonce kept, a token rotated) must not happen twice. The caller
/// answers that request with a failure; the next one connects afresh.
public final class RedisClient: Sendable {
    public let url: RedisURL
    /// Seconds for connecting and for each reply.
    public let timeout: Double
    private let scripts: [String: RedisScript]
    private let pool = Locked(Pool())

    /// Idle connections, and when the next connection may be tried after a failure.
    private struct Pool {
        var idle: [RedisConnection] = []
        var retryAt: ContinuousClock.Instant?
        var backoff: Duration = RedisClient.firstBackoff
        var lastFailure = ""
        var roundTrips = 0
        /// When the latest connection was made: a failed attempt begun before it is stale
        /// and sets no backoff (Redis is back; another thread got through).
        var connectedAt: ContinuousClock.Instant?
    }

    /// How many idle connections are kept; more are opened under load and closed after.
    static let maxIdle = 32
    static let firstBackoff = Duration.milliseconds(50)
    static let maxBackoff = Duration.milliseconds(500)

    /// - Parameters:
    ///   - scripts: the scripts this client runs, so a `NOSCRIPT` answer can be met with the source.
    public init(url: RedisURL, timeout: Double = 1, scripts: [RedisScript] = []) {
        self.url = url
        self.timeout = timeout
        self.scripts = Dictionary(scripts.map { ($0.sha, $0) }, uniquingKeysWith: { first, _ in first })
    }

    /// `PREFIX:part:part…`, the name of a key of this client's mock.
    public func key(_ parts: String...) -> String {
        ([url.prefix] + parts).joined(separator: ":")
    }

    /// Round trips made so far (each ``send(_:)`` is one, a `NOSCRIPT` retry another).
    public var roundTrips: Int { pool.withLock { $0.roundTrips } }

    /// Sends one command and returns its reply; an error reply throws ``RedisError/reply(_:)``.
    @discardableResult
    public func send(_ command: RedisCommand) throws(RedisError) -> RedisReply {
        let reply = try send([command])[0]
        if let message = reply.errorMessage { throw .reply("\(command.name): \(message)") }
        return reply
    }

    /// Runs `script` with `keys` and `arguments`; an error reply throws.
    @discardableResult
    public func run(_ script: RedisScript, keys: [any RedisArgument], arguments: [any RedisArgument]) throws(RedisError) -> RedisReply {
        let reply = try send([script.command(keys: keys, arguments: arguments)])[0]
        if let message = reply.errorMessage { throw .reply("script: \(message)") }
        return reply
    }

    /// Sends `commands` in one round trip and returns their replies in order (error
    /// replies among them, as values). A script Redis does not hold is sent again with its source.
    public func send(_ commands: [RedisCommand]) throws(RedisError) -> [RedisReply] {
        let connection = try borrow()
        do {
            var replies = try connection.send(commands)
            let missing = commands.indices.filter { replies[$0].errorMessage?.hasPrefix("NOSCRIPT") == true }
            if !missing.isEmpty {
                let retried = try connection.send(missing.map { index in
                    let command = commands[index]
                    let sha = command.arguments.count > 1 ? String(decoding: command.arguments[1], as: UTF8.self) : ""
                    return scripts[sha]?.withSource(command) ?? command
                })
                for (index, reply) in zip(missing, retried) { replies[index] = reply }
            }
            giveBack(connection, trips: missing.isEmpty ? 1 : 2)
            return replies
        } catch {
            dropAll(after: error)
            throw error
        }
    }

    /// Checks that Redis answers (`PING`), connecting now: for the start, which must fail
    /// with a clear message rather than serve requests that cannot be answered.
    public func ping() throws(RedisError) {
        let reply = try send(RedisCommand("PING"))
        guard reply.text == "PONG" else { throw .unexpected("PING answered \(reply)") }
    }

    private func borrow() throws(RedisError) -> RedisConnection {
        let now = ContinuousClock.now
        let ready: Result<RedisConnection?, RedisError> = pool.withLock { pool in
            if let connection = pool.idle.popLast() { return .success(connection) }
            if let retryAt = pool.retryAt, now < retryAt {
                return .failure(.unreachable("Redis at \(url.host):\(url.port) is unreachable (\(pool.lastFailure)); retrying shortly"))
            }
            return .success(nil)
        }
        if let connection = try ready.get() { return connection }
        do {
            let connection = try RedisConnection(url, timeout: timeout)
            pool.withLock { pool in
                pool.retryAt = nil
                pool.backoff = Self.firstBackoff
                pool.connectedAt = ContinuousClock.now
            }
            return connection
        } catch {
            pool.withLock { pool in
                if let connectedAt = pool.connectedAt, connectedAt > now { return }
                pool.retryAt = ContinuousClock.now + pool.backoff
                pool.backoff = min(pool.backoff * 2, Self.maxBackoff)
                pool.lastFailure = error.description
            }
            throw error
        }
    }

    private func giveBack(_ connection: RedisConnection, trips: Int) {
        pool.withLock { pool in
            pool.roundTrips += trips
            if !connection.isBroken && pool.idle.count < Self.maxIdle { pool.idle.append(connection) }
        }
    }

    /// After a broken connection the idle ones most likely broke with it (a restart):
    /// closed, so the next request connects afresh instead of failing on each in turn.
    private func dropAll(after error: RedisError) {
        guard case .unreachable(let message) = error else { return }
        pool.withLock { pool in
            pool.idle.removeAll()
            pool.lastFailure = message
        }
    }
}
