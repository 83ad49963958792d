import AccordHTTPClient
import Foundation

/// Threads that talk to the upstream, each with its own libcurl client (so each keeps
/// its connections alive), fed from one bounded queue. A request waits here, never on
/// one of the server's workers: its connection is parked meanwhile.
final class UpstreamWorkers: @unchecked Sendable {
    typealias Job = @Sendable (HTTPClient) -> Void

    /// The most requests waiting for a free worker; beyond it the proxy answers 503.
    let queueLimit: Int
    /// How many workers there are.
    let count: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var jobs: [Job] = []
    private var head = 0
    private var stopping = false
    private var running = 0

    /// Starts `count` workers; fails when libcurl cannot make a client.
    /// - Parameter name: the threads' name, numbered (`upstream` → `accord.upstream.0`).
    init(count: Int, queueLimit: Int, configuration: HTTPClient.Configuration, name: String) throws(HTTPClient.Failure) {
        self.queueLimit = queueLimit
        self.count = count
        let clients = try (0..<count).map { _ throws(HTTPClient.Failure) in try HTTPClient(configuration: configuration) }
        for (index, client) in clients.enumerated() {
            let box = ClientBox(client: client)
            let thread = Thread { [self] in work(with: box.client) }
            thread.name = "accord.\(name).\(index)"
            // libcurl and a TLS handshake need more than a secondary thread's default 512 KiB.
            thread.stackSize = 4 << 20
            running += 1
            thread.start()
        }
    }

    /// Queues `job`; false when ``queueLimit`` jobs wait already or the workers stopped.
    func submit(_ job: @escaping Job) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        guard !stopping, jobs.count - head < queueLimit else { return false }
        jobs.append(job)
        condition.signal()
        return true
    }

    /// Lets the workers finish the queued jobs, then ends them.
    func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        while running > 0 { condition.wait() }
        condition.unlock()
    }

    private func work(with client: HTTPClient) {
        while let job = next() { job(client) }
        condition.lock()
        running -= 1
        condition.broadcast()
        condition.unlock()
    }

    private func next() -> Job? {
        condition.lock()
        defer { condition.unlock() }
        while head == jobs.count && !stopping { condition.wait() }
        guard head < jobs.count else { return nil }
        let job = jobs[head]
        head += 1
        if head == jobs.count {
            jobs.removeAll(keepingCapacity: true)
            head = 0
        }
        return job
    }

    /// Hands a client to the one thread that uses it.
    private struct ClientBox: @unchecked Sendable {
        let client: HTTPClient
    }
}
