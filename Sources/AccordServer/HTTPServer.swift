import AccordHTTP
import AccordSync
import AccordTLS
internal import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd that hands every request to a handler and
/// writes back its ``MockResponse``.
///
/// Keep-alive, a worker pool on epoll (poll where epoll is missing), delays and
/// server-sent events without blocking a worker (the connection is suspended and
/// resumed by a timer), a body limit, and a
/// graceful stop that lets requests in flight finish.
///
/// Hostile peers meet these bounds: a request whose framing is ambiguous (two
/// `Content-Length`s, `Content-Length` with `Transfer-Encoding`, a coding other than
/// `chunked`) or a header line that is not plain HTTP (whitespace before the colon, a
/// NUL or control byte in a value, a folded line) is answered 400 and the connection
/// closed before any body is read; a declared body over the limit is answered 413 at
/// once, without `100 Continue`, and a chunked one the moment it passes the limit; the
/// bodies in flight together stay within ``Configuration/bodyBudgetBytes`` (503
/// beyond); every connection has ``Configuration/headerTimeoutSeconds`` to send each
/// request head and ``Configuration/requestTimeoutSeconds`` for the whole request, its
/// body at ``Configuration/minimumBodyBytesPerSecond`` at least after the first
/// ``Configuration/bodyGraceSeconds``; and at most ``Configuration/connectionLimit``
/// connections are open, at most ``Configuration/perIPConnectionLimit`` from one address.
public final class HTTPServer: @unchecked Sendable {
    /// Where and how to listen.
    public struct Configuration: Sendable {
        /// An IPv4 address; loopback by default.
        public var host: String
        /// 0 asks the system for a free port (see ``port``).
        public var port: UInt16
        public var threads: Int
        /// The largest request body, unless ``bodyLimit`` says otherwise for a request.
        public var maxBodyBytes: Int
        /// The largest body of one request, by method and target (an upload endpoint takes
        /// more than a JSON one); nil: ``maxBodyBytes`` for every request.
        public var bodyLimit: (@Sendable (_ method: String, _ target: String) -> Int)?
        /// The most bytes that the bodies of all requests in flight hold together; a
        /// request that would pass it is answered 503 with `Retry-After`.
        public var bodyBudgetBytes: Int
        /// How long a connection may stay silent.
        public var connectionTimeoutSeconds: Int
        /// How long a connection has to send a whole request head, from its accept or the end of its previous request.
        public var headerTimeoutSeconds: Int
        /// How long a connection has to send a whole request, head and body.
        public var requestTimeoutSeconds: Int
        /// The slowest a body may arrive on average, once ``bodyGraceSeconds`` have passed.
        public var minimumBodyBytesPerSecond: Int
        /// How long a body may arrive at any pace before ``minimumBodyBytesPerSecond`` applies.
        public var bodyGraceSeconds: Int
        /// Each connection's memory: the request head and the answer's header lines share it
        /// (libmicrohttpd zeroes it for every request, so its size is paid per request); 8 KiB
        /// holds a head of about 6 KiB, as nginx's default header buffer does.
        public var connectionMemoryBytes = 8 << 10
        /// The most connections open at once.
        public var connectionLimit: Int
        /// The most connections open at once from one IP address.
        public var perIPConnectionLimit: Int
        /// Serve HTTPS with this certificate and key (TLS 1.2 and 1.3 only); nil for plain HTTP.
        public var tls: TLSIdentity?
        /// How the workers wait on their sockets.
        public var eventLoop = EventLoop.automatic

        public init(host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maxBodyBytes: Int = 1 << 20, bodyBudgetBytes: Int = 256 << 20, connectionTimeoutSeconds: Int = 30,
                    headerTimeoutSeconds: Int = 10, requestTimeoutSeconds: Int = 30, minimumBodyBytesPerSecond: Int = 1_024,
                    bodyGraceSeconds: Int = 10, connectionLimit: Int = 4_096, perIPConnectionLimit: Int = 2_048) {
            self.host = host
            self.port = port
            self.threads = max(1, threads)
            self.maxBodyBytes = maxBodyBytes
            self.bodyBudgetBytes = bodyBudgetBytes
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
            self.headerTimeoutSeconds = headerTimeoutSeconds
            self.requestTimeoutSeconds = requestTimeoutSeconds
            self.minimumBodyBytesPerSecond = minimumBodyBytesPerSecond
            self.bodyGraceSeconds = bodyGraceSeconds
            self.connectionLimit = connectionLimit
            self.perIPConnectionLimit = perIPConnectionLimit
        }
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Answers one request; called on a worker thread.
    public typealias Handler = @Sendable (MockRequest) -> MockResponse
    /// Answers one request now, or later from another thread (see ``Reply``).
    public typealias ReplyingHandler = @Sendable (MockRequest) -> Reply

    /// How a ``ReplyingHandler`` answers.
    public enum Reply: Sendable {
        /// The answer, at once.
        case now(MockResponse)
        /// The answer comes later: the server parks the connection (no worker waits) and
        /// calls this with the function that delivers the answer, from any thread,
        /// once. An answer delivered after the server stopped is dropped.
        case later(@Sendable (_ deliver: @escaping @Sendable (MockResponse) -> Void) -> Void)
    }
    /// Told about every answered request, with its latency in microseconds.
    public typealias Observer = @Sendable (MockRequest, MockResponse, Int) -> Void

    public let configuration: Configuration
    let handler: ReplyingHandler
    let observer: Observer?
    /// Where the server's own notices go (deadlines enforced): one line a second at most, by the sweep itself.
    let log: @Sendable (String) -> Void
    /// libmicrohttpd's messages (limits reached, malformed requests), which a flood can produce by the thousand.
    let libraryNotices: NoticeLog
    let connections: ConnectionRegistry
    private var daemon: OpaquePointer?
    private var sweeper: DispatchSourceTimer?
    let inFlight = Atomic<Int>(0)
    /// Cleared as the server stops: new connections are closed as they are accepted (``acceptPolicy``).
    let accepting = Atomic<Bool>(true)
    /// The body bytes that requests in flight hold or have been promised (``Configuration/bodyBudgetBytes``).
    let bodyBytesInFlight = Atomic<Int>(0)
    let suspended = Locked<Set<ConnectionHandle>>([])
    /// Streams parked while their pipe is empty: libmicrohttpd does not watch a parked
    /// socket, so the sweep looks for peers that hung up (an event stream's slot is
    /// freed within a second of its reader leaving, not at the next heartbeat).
    let idleStreams = Locked<[ConnectionHandle: (descriptor: Int32, pipe: BodyPipe)]>([:])
    let timers = DispatchQueue(label: "accord.http.timers")
    /// The PEM strings MHD reads the TLS identity from, NUL-terminated; freed once the daemon stopped.
    private var tlsStrings: (certificate: UnsafeMutablePointer<CChar>, key: UnsafeMutablePointer<CChar>)?

    /// - Parameter log: receives the server's own notices, one line each (standard error by default).
    public convenience init(configuration: Configuration, handler: @escaping Handler, observer: Observer? = nil,
                            log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.init(configuration: configuration, replying: { .now(handler($0)) }, observer: observer, log: log)
    }

    /// A server whose handler may answer later, from another thread (a proxy waiting on its upstream).
    /// - Parameter log: receives the server's own notices, one line each (standard error by default).
    public init(configuration: Configuration, replying handler: @escaping ReplyingHandler, observer: Observer? = nil,
                log: @escaping @Sendable (String) -> Void = { FileHandle.standardError.write(Data(($0 + "\n").utf8)) }) {
        self.configuration = configuration
        self.handler = handler
        self.observer = observer
        self.log = log
        libraryNotices = NoticeLog(write: log)
        connections = ConnectionRegistry(deadlines: .init(
            headMilliseconds: configuration.headerTimeoutSeconds * 1_000, requestMilliseconds: configuration.requestTimeoutSeconds * 1_000,
            bodyGraceMilliseconds: configuration.bodyGraceSeconds * 1_000, minimumBodyBytesPerSecond: configuration.minimumBodyBytesPerSecond))
    }

    deinit {
        sweeper?.cancel()
        if let daemon { MHD_stop_daemon(daemon) }
        releaseTLSStrings()
    }

    /// `bytes` as a NUL-terminated C string the caller frees.
    private static func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
        let string = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
        for (index, byte) in bytes.enumerated() { string[index] = CChar(bitPattern: byte) }
        string[bytes.count] = 0
        return string
    }

    private func releaseTLSStrings() {
        guard let strings = tlsStrings else { return }
        strings.certificate.deallocate()
        strings.key.deallocate()
        tlsStrings = nil
    }

    /// The bound port, once started.
    public private(set) var port: UInt16 = 0

    /// Starts listening; returns when the socket is bound.
    public func start() throws(StartError) {
        try Self.allowDescriptors(configuration.connectionLimit + 64)
        Self.returnLargeBuffersToTheSystem()
        if let tls = configuration.tls {
            guard accord_tls_supported() != 0 else {
                throw StartError(description: "this libmicrohttpd was built without TLS (MHD_FEATURE_TLS is off); "
                                 + "install Debian's libmicrohttpd12, which links GnuTLS, or serve plain HTTP without --tls")
            }
            tlsStrings = (Self.cString(tls.certificatePEM), Self.cString(tls.privateKeyPEM))
        }
        accepting.store(true, ordering: .releasing)
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: OpaquePointer? = configuration.host.withCString { host in
            var settings = accord_daemon_settings(
                ipv4: host, port: configuration.port, threads: UInt32(configuration.threads),
                connection_timeout_seconds: UInt32(configuration.connectionTimeoutSeconds),
                connection_limit: UInt32(configuration.connectionLimit), per_ip_connection_limit: UInt32(configuration.perIPConnectionLimit),
                connection_memory_bytes: configuration.connectionMemoryBytes,
                handler: accessHandler, completed: completedHandler, connection_notify: connectionNotifier, accept_policy: acceptPolicy,
                uri_logger: requestTargetLogger, context: context, tls_certificate: tlsStrings?.certificate, tls_key: tlsStrings?.key,
                event_loop: configuration.eventLoop.flag)
            return accord_start_daemon(&settings)
        }
        guard let started else {
            releaseTLSStrings()
            let what = (configuration.tls == nil ? "" : " with TLS (does the key belong to the certificate?)") + configuration.eventLoop.startFailureHint
            throw StartError(description: "cannot listen on \(configuration.host):\(configuration.port)\(what) (address in use, or not an IPv4 address?)")
        }
        daemon = started
        port = accord_daemon_port(started)
        let sweeper = DispatchSource.makeTimerSource(queue: timers)
        sweeper.schedule(deadline: .now() + .seconds(1), repeating: .seconds(1))
        sweeper.setEventHandler { [weak self] in
            self?.enforceHeaderDeadline()
            self?.endHungUpStreams()
        }
        sweeper.resume()
        self.sweeper = sweeper
    }

    /// Stops accepting connections, waits up to `grace` for requests in flight, then
    /// closes everything. Returns how many requests were still running at the deadline.
    @discardableResult
    public func stop(grace: Duration = .milliseconds(1_500)) -> Int {
        guard let daemon else { return 0 }
        sweeper.take()?.cancel()
        accepting.store(false, ordering: .releasing)
        let deadline = ContinuousClock.now + grace
        while inFlight.load(ordering: .acquiring) > 0 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        let unfinished = inFlight.load(ordering: .acquiring)
        // MHD must not be stopped with suspended connections; a timer or a late answer
        // finds its connection gone from the set and leaves it alone.
        for connection in suspended.withLock({ set in defer { set.removeAll() }; return Array(set) }) {
            MHD_resume_connection(connection.pointer)
        }
        MHD_stop_daemon(daemon)
        self.daemon = nil
        releaseTLSStrings()
        return unfinished
    }

    // MARK: Requests

    /// The raw request target arrived (before MHD decodes it): the request's state begins here.
    func begin(target: String) -> UnsafeMutableRawPointer {
        inFlight.add(1, ordering: .relaxed)
        return Unmanaged.passRetained(RequestState(target: target)).toOpaque()
    }

    func handle(connection: OpaquePointer, method: String, upload: UnsafePointer<CChar>?,
                uploadSize: UnsafeMutablePointer<Int>, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let existing = slot.pointee else { return .NO }
        let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
        guard state.headers != nil else { return begin(state, on: connection, method: method) }
        if uploadSize.pointee > 0 {
            let count = uploadSize.pointee
            uploadSize.pointee = 0
            state.clock?.bodyReceived(count)
            // Answered already (the body passed a limit): a little more is read and dropped, then the connection closes.
            if state.request != nil {
                state.lingerBytes -= count
                return state.lingerBytes > 0 ? .YES : .NO
            }
            guard let upload else { return .NO }
            guard state.body.count + count <= state.bodyLimit else {
                state.bodyLimitExceeded = true
                return cutOff(connection, state: state)
            }
            guard reserve(state.body.count + count, for: state) else {
                state.bodyBudgetExhausted = true
                return cutOff(connection, state: state)
            }
            upload.withMemoryRebound(to: UInt8.self, capacity: count) {
                state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: count))
            }
            return .YES
        }
        if state.request != nil {
            // Resumed after a delay or a later answer; without one the server is stopping.
            let pending = suspended.withLock { set in
                _ = set.remove(ConnectionHandle(pointer: connection))
                return state.pending
            }
            guard let pending else { return .NO }
            return queue(pending, on: connection, state: state)
        }
        return answer(connection, state: state, framingProblem: nil)
    }

    func completed(_ connection: OpaquePointer?, _ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let raw = slot?.pointee else { return }
        slot?.pointee = nil
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
        release(state)
        inFlight.subtract(1, ordering: .relaxed)
        if let connection { ConnectionRegistry.clock(of: connection)?.requestEnded(at: ContinuousClock.now) }
        if let observer, let request = state.request, let response = state.response {
            observer(request, response, (ContinuousClock.now - state.start).wholeMicroseconds)
        }
    }
}
