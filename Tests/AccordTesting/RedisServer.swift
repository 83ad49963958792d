import AccordMock
import AccordMockState
import AccordRedis
import AccordRedisStorage
import AccordSync
import Foundation

/// A real `redis-server` on a free loopback port with a temporary directory, started by
/// the tests themselves (scripts/setup installs it), stopped when released. Tests share
/// ``shared`` and keep apart by key prefix; a test that kills or restarts Redis starts its own.
public final class RedisServer: @unchecked Sendable {
    public private(set) var port: UInt16
    private let directory: URL
    private let extraArguments: [String]
    private var process: Process
    private var lifeline: Pipe?
    private var redisPID: pid_t = 0

    public struct LaunchError: Error, CustomStringConvertible {
        public var description: String
    }

    /// The instance every storage test shares, started on first use.
    public static func shared() throws -> RedisServer {
        try sharedServer.withLock { server in
            if let server { return server }
            let started = try RedisServer()
            server = started
            return started
        }
    }

    private static let sharedServer = Locked<RedisServer?>(nil)
    private static let prefixes = Locked(0)

    /// - Parameter arguments: more `redis-server` options (`--maxmemory-policy allkeys-lru`).
    public init(arguments: [String] = []) throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("accord-redis-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        extraArguments = arguments
        port = 0
        process = Process()
        try start(on: nil)
    }

    deinit {
        stop()
        try? FileManager.default.removeItem(at: directory)
    }

    /// A URL of this server under a prefix no other test uses.
    public func url(_ name: String = "test") -> RedisURL {
        let number = Self.prefixes.withLock { count in
            count += 1
            return count
        }
        return RedisURL(host: "127.0.0.1", port: Int(port), prefix: "\(name)-\(number)-\(getpid())")
    }

    /// `redis://127.0.0.1:PORT/0?prefix=…`, for `accord serve --storage`.
    public func urlText(_ name: String = "test") -> String { url(name).description }

    /// `kill -9`: Redis is gone at once, as when its machine fails.
    public func kill9() {
        kill(redisPID, SIGKILL)
        stop()
    }

    /// Starts Redis again on the same port, empty.
    public func restart() throws {
        stop()
        try start(on: port)
    }

    private func stop() {
        guard process.isRunning else { return }
        try? lifeline?.fileHandleForWriting.close()
        process.waitUntilExit()
    }

    /// Starts redis-server under a shell that holds it on a lifeline: the shell's stdin,
    /// whose other end only this process holds. When it closes (``stop()``, or this test
    /// process dies however it dies) the shell kills Redis, so no run leaves one behind.
    /// The shell's first line of output is Redis's pid, for ``kill9()``.
    private func launch(_ arguments: [String]) throws -> pid_t {
        let stdin = Pipe(), stdout = Pipe()
        process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", #"/usr/bin/redis-server "$@" >/dev/null 2>&1 & child=$!; echo "$child"; read _; kill -9 "$child" 2>/dev/null"#, "sh"]
            + arguments
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = FileHandle.nullDevice
        try process.run()
        lifeline = stdin
        var line: [UInt8] = []
        while let byte = try stdout.fileHandleForReading.read(upToCount: 1)?.first, byte != UInt8(ascii: "\n") { line.append(byte) }
        guard let pid = pid_t(String(decoding: line, as: UTF8.self)) else { throw LaunchError(description: "the redis-server wrapper said no pid") }
        return pid
    }

    private func start(on fixed: UInt16?) throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/redis-server") else {
            throw LaunchError(description: "redis-server is not installed; run scripts/setup")
        }
        for _ in 0..<5 {
            let chosen: UInt16
            if let fixed {
                chosen = fixed
            } else {
                let probe = LoopbackListener()
                chosen = probe.port
                probe.close()
            }
            redisPID = try launch(["--port", "\(chosen)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", directory.path,
                                   "--maxmemory-policy", "noeviction", "--logfile", directory.appendingPathComponent("redis.log").path] + extraArguments)
            let client = RedisClient(url: RedisURL(host: "127.0.0.1", port: Int(chosen)), timeout: 0.5)
            for _ in 0..<100 {
                if (try? client.ping()) != nil {
                    port = chosen
                    return
                }
                if kill(redisPID, 0) != 0 { break }
                Thread.sleep(forTimeInterval: 0.02)
            }
            stop()
        }
        throw LaunchError(description: "redis-server did not start; its log is \(directory.appendingPathComponent("redis.log").path)")
    }
}

/// The two drivers of ``MockStorage`` every storage contract test runs against.
public enum StorageDriver: String, CaseIterable, Sendable, CustomStringConvertible {
    case memory
    case redis

    public var description: String { rawValue }

    /// The driver engine suites serve from: `ACCORD_TEST_STORAGE=redis` runs every
    /// ``EngineFixture`` on the shared Redis (scripts/test does, once), else memory.
    public static let forEngines: StorageDriver = ProcessInfo.processInfo.environment["ACCORD_TEST_STORAGE"]
        .flatMap(StorageDriver.init(rawValue:)) ?? .memory

    /// A fresh, empty storage of this driver (its own prefix on the shared Redis).
    public func make(wall: Int64, nonceTTLSeconds: Int = 600, accessTTL: Int = 7_200, refreshTTL: Int = 2_592_000, journal: Int = 10_000,
                     uploadBudget: Int = UploadStore.defaultBudget, random: @escaping @Sendable () -> Double = { 0 }) throws -> any MockStorage {
        switch self {
        case .memory:
            InMemoryStorage(clock: MockClock(wall: wall), nonceTTLSeconds: nonceTTLSeconds, accessTTL: accessTTL, refreshTTL: refreshTTL,
                            journal: Journal(capacity: journal), uploads: UploadStore(budgetBytes: uploadBudget), random: random)
        case .redis:
            RedisStorage(url: try RedisServer.shared().url(), wallClock: MockClock(wall: wall), nonceTTLSeconds: nonceTTLSeconds, accessTTL: accessTTL,
                         refreshTTL: refreshTTL, journalCapacity: journal, uploadBudget: uploadBudget, random: random)
        }
    }

    /// A second replica's view of `storage`: the same value in memory (one process holds
    /// it), a new ``RedisStorage`` with its own connections on the same Redis and prefix.
    public func sibling(of storage: any MockStorage, wall: Int64) throws -> any MockStorage {
        guard self == .redis, let redis = storage as? RedisStorage else { return storage }
        return RedisStorage(url: redis.client.url, wallClock: MockClock(wall: wall), nonceTTLSeconds: 600, random: { 0 })
    }
}
