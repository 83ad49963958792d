import AccordMock
import AccordSync
import AccordTLS
internal import CMicroHTTPD
import Dispatch
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd that hands every request to a handler and
/// writes back its ``MockResponse``.
///
/// Keep-alive, an epoll worker pool, delays and server-sent events without blocking a
/// worker (the connection is suspended and resumed by a timer), a body limit, and a
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
    private let handler: ReplyingHandler
    private let observer: Observer?
    /// Where the server's own notices go (deadlines enforced): one line a second at most, by the sweep itself.
    private let log: @Sendable (String) -> Void
    /// libmicrohttpd's messages (limits reached, malformed requests), which a flood can produce by the thousand.
    let libraryNotices: NoticeLog
    let connections: ConnectionRegistry
    private var daemon: OpaquePointer?
    private var sweeper: DispatchSourceTimer?
    private let inFlight = Atomic<Int>(0)
    /// The body bytes that requests in flight hold or have been promised (``Configuration/bodyBudgetBytes``).
    private let bodyBytesInFlight = Atomic<Int>(0)
    private let suspended = Locked<Set<ConnectionHandle>>([])
    /// Streams parked while their pipe is empty: libmicrohttpd does not watch a parked
    /// socket, so the sweep looks for peers that hung up (an event stream's slot is
    /// freed within a second of its reader leaving, not at the next heartbeat).
    private let idleStreams = Locked<[ConnectionHandle: (descriptor: Int32, pipe: BodyPipe)]>([:])
    private let timers = DispatchQueue(label: "accord.http.timers")
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
        let context = Unmanaged.passUnretained(self).toOpaque()
        let started: OpaquePointer? = configuration.host.withCString { host in
            var settings = accord_daemon_settings(
                ipv4: host, port: configuration.port, threads: UInt32(configuration.threads),
                connection_timeout_seconds: UInt32(configuration.connectionTimeoutSeconds),
                connection_limit: UInt32(configuration.connectionLimit), per_ip_connection_limit: UInt32(configuration.perIPConnectionLimit),
                connection_memory_bytes: configuration.connectionMemoryBytes,
                handler: accessHandler, completed: completedHandler, connection_notify: connectionNotifier,
                uri_logger: requestTargetLogger, context: context, tls_certificate: tlsStrings?.certificate, tls_key: tlsStrings?.key)
            return accord_start_daemon(&settings)
        }
        guard let started else {
            releaseTLSStrings()
            let what = configuration.tls == nil ? "" : " with TLS (does the key belong to the certificate?)"
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

    /// Request bodies of megabytes come and go; glibc's malloc raises its mmap threshold
    /// each time such a block is freed, so later bodies land on the heap and their pages
    /// stay with the process (300 uploads of 4 MiB kept 1.1 GB). A fixed threshold keeps
    /// every block over 256 KiB in its own mapping, given back when freed.
    private static func returnLargeBuffersToTheSystem() {
        accord_fix_mmap_threshold(256 << 10)
    }

    /// Raises the process's open-file limit to `needed` (within the hard limit).
    private static func allowDescriptors(_ needed: Int) throws(StartError) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        guard limit.rlim_cur < rlim_t(needed) else { return }
        guard limit.rlim_max >= rlim_t(needed) else {
            throw StartError(description: "\(needed - 64) connections need \(needed) open files; the hard limit is \(limit.rlim_max) "
                             + "(lower --max-connections or raise 'ulimit -Hn')")
        }
        limit.rlim_cur = rlim_t(needed)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Stops accepting connections, waits up to `grace` for requests in flight, then
    /// closes everything. Returns how many requests were still running at the deadline.
    @discardableResult
    public func stop(grace: Duration = .milliseconds(1_500)) -> Int {
        guard let daemon else { return 0 }
        sweeper?.cancel()
        sweeper = nil
        let listener = MHD_quiesce_daemon(daemon)
        if listener >= 0 { close(listener) }
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

    private func enforceHeaderDeadline() {
        let closed = connections.closeOverdue(now: ContinuousClock.now)
        if closed.heads > 0 {
            log("accord serve: closed \(closed.heads) connection(s) that sent no complete request head within \(configuration.headerTimeoutSeconds) s")
        }
        if closed.bodies > 0 {
            log("accord serve: closed \(closed.bodies) connection(s) whose request took over \(configuration.requestTimeoutSeconds) s "
                + "or whose body came slower than \(configuration.minimumBodyBytesPerSecond) bytes/s after \(configuration.bodyGraceSeconds) s")
        }
    }

    func watchForHangUp(_ handle: ConnectionHandle, descriptor: Int32, pipe: BodyPipe) {
        guard descriptor >= 0 else { return }
        idleStreams.withLock { $0[handle] = (descriptor, pipe) }
    }

    func stopWatching(_ handle: ConnectionHandle) {
        idleStreams.withLock { _ = $0.removeValue(forKey: handle) }
    }

    /// Ends the parked streams whose peer hung up: their pipe fails, which wakes the
    /// connection, and libmicrohttpd closes it and frees the stream.
    private func endHungUpStreams() {
        let watched = idleStreams.withLock { Array($0.values) }
        for stream in watched {
            var entry = pollfd(fd: stream.descriptor, events: Int16(Self.hangUpEvents), revents: 0)
            if poll(&entry, 1, 0) > 0, Int32(entry.revents) & (Self.hangUpEvents | Int32(POLLHUP) | Int32(POLLERR)) != 0 {
                stream.pipe.finish(failed: true)
            }
        }
    }

    /// `POLLRDHUP` where the system has it (the peer shut its side down), else `POLLHUP`.
    private static let hangUpEvents = Int32(accord_poll_hang_up())

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

    /// The first call: the head is complete. Refuses what must not be read further, and
    /// sets the body's limit and reserves its declared length in the budget.
    private func begin(_ state: RequestState, on connection: OpaquePointer, method: String) -> MHD_Result {
        state.clock = ConnectionRegistry.clock(of: connection)
        state.clock?.headReceived(at: ContinuousClock.now)
        let head = RequestHead(connection)
        state.method = method
        state.headers = head.headers
        let hasBody = !head.codings.isEmpty || head.lengths.contains { $0 != "0" }
        if hasBody { state.bodyLimit = configuration.bodyLimit?(method, state.target) ?? configuration.maxBodyBytes }
        let framing = FramingCheck(lengths: head.lengths, codings: head.codings, maxBodyBytes: state.bodyLimit)
        if let problem = head.problem ?? framing.problem {
            state.closesConnection = true
            return answer(connection, state: state, framingProblem: problem)
        }
        if framing.declaresTooLargeBody {
            state.bodyLimitExceeded = true
            return refuse(connection, state: state)
        }
        if let length = framing.declaredLength, length > 0 {
            guard reserve(length, for: state) else {
                state.bodyBudgetExhausted = true
                return refuse(connection, state: state)
            }
            state.body.reserveCapacity(length)
        }
        return .YES
    }

    /// How much of a cut-off body is still read and dropped after its answer, so that
    /// the client reads the answer before the close: a close with unread bytes is a
    /// reset, which can destroy an answer still in flight.
    static let lingerBytes = 1 << 20

    /// The body passed a limit while it arrived. libmicrohttpd queues no answer before
    /// a whole body is read, so on plain HTTP the answer is written to the socket here,
    /// then a FIN, and at most ``lingerBytes`` more are read; over TLS (where only the
    /// library can write) the connection closes at once.
    private func cutOff(_ connection: OpaquePointer, state: RequestState) -> MHD_Result {
        state.body = []
        release(state)
        state.closesConnection = true
        state.lingerBytes = Self.lingerBytes
        guard case .now(let response) = handler(request(for: state, connection: connection, framingProblem: nil)) else { return .NO }
        state.response = response
        guard configuration.tls == nil, case .bytes(let body) = response.body else { return .NO }
        let descriptor = accord_connection_fd(connection)
        let bytes = Self.wire(response, body: body)
        let sent = bytes.withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        guard sent == bytes.count else { return .NO }
        shutdown(descriptor, Int32(SHUT_WR))
        return .YES
    }

    /// A whole answer as HTTP/1.1 bytes, for ``cutOff(_:state:)``.
    private static func wire(_ response: MockResponse, body: [UInt8]) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(String(cString: MHD_get_reason_phrase_for(UInt32(response.status))))\r\n"
        for header in response.headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// Answers before the whole body is read (over its limit, or the budget); the connection closes after it.
    private func refuse(_ connection: OpaquePointer, state: RequestState) -> MHD_Result {
        state.body = []
        release(state)
        state.closesConnection = true
        return answer(connection, state: state, framingProblem: nil)
    }

    /// Grows the request's share of the body budget to `bytes`; false when the budget cannot give it.
    private func reserve(_ bytes: Int, for state: RequestState) -> Bool {
        guard bytes > state.reservedBodyBytes else { return true }
        // The share doubles as a chunked body grows (as its buffer does), within the body's limit.
        let extra = max(bytes, min(state.reservedBodyBytes * 2, state.bodyLimit)) - state.reservedBodyBytes
        var current = bodyBytesInFlight.load(ordering: .relaxed)
        while true {
            guard current + extra <= configuration.bodyBudgetBytes else { return false }
            let (exchanged, original) = bodyBytesInFlight.compareExchange(expected: current, desired: current + extra, ordering: .relaxed)
            if exchanged { break }
            current = original
        }
        state.reservedBodyBytes += extra
        return true
    }

    /// Gives the request's share of the body budget back.
    private func release(_ state: RequestState) {
        guard state.reservedBodyBytes > 0 else { return }
        bodyBytesInFlight.subtract(state.reservedBodyBytes, ordering: .relaxed)
        state.reservedBodyBytes = 0
    }

    /// The body bytes that requests in flight hold now, for tests and the stop.
    var bodyBytesHeld: Int { bodyBytesInFlight.load(ordering: .relaxed) }

    /// The engine's request, kept in `state` for the observer.
    private func request(for state: RequestState, connection: OpaquePointer, framingProblem: String?) -> MockRequest {
        state.clock?.requestRead()
        var request = MockRequest(method: state.method, target: state.target, headers: state.headers ?? HTTPHeaders(), body: state.body,
                                  bodyLimitExceeded: state.bodyLimitExceeded)
        request.framingProblem = framingProblem
        request.bodyBudgetExhausted = state.bodyBudgetExhausted
        request.isFromLoopback = accord_client_is_loopback(connection) != 0
        state.request = request
        return request
    }

    /// Builds the engine's request, asks the handler, and queues (or delays) the answer.
    private func answer(_ connection: OpaquePointer, state: RequestState, framingProblem: String?) -> MHD_Result {
        switch handler(request(for: state, connection: connection, framingProblem: framingProblem)) {
        case .now(let response):
            if response.delayMilliseconds > 0 && !state.closesConnection {
                state.pending = response
                suspend(connection, for: response.delayMilliseconds)
                return .YES
            }
            return queue(response, on: connection, state: state)
        case .later(let start):
            let handle = park(connection)
            start { [self] response in deliver(response, to: handle, state: state) }
            return .YES
        }
    }

    /// Hands a later answer to its parked connection, after the answer's own delay.
    private func deliver(_ response: MockResponse, to handle: ConnectionHandle, state: RequestState) {
        var response = response
        let delay = response.delayMilliseconds
        response.delayMilliseconds = 0
        let waiting = suspended.withLock { set in
            guard set.contains(handle), state.pending == nil else { return false }
            state.pending = response
            return true
        }
        guard waiting else { return }
        if delay > 0 {
            timers.asyncAfter(deadline: .now() + .milliseconds(delay)) { [self] in wake(handle) }
        } else {
            wake(handle)
        }
    }

    private func queue(_ response: MockResponse, on connection: OpaquePointer, state: RequestState) -> MHD_Result {
        state.response = response
        switch response.termination {
        case .reset?:
            // Returning NO makes MHD close the socket; with SO_LINGER zero that is a reset.
            accord_reset_on_close(connection)
            return .NO
        case .close?:
            return .NO
        case nil:
            break
        }
        let mhdResponse: OpaquePointer?
        switch response.body {
        case .bytes(let bytes):
            mhdResponse = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        case .stream(let pipe):
            let reader = PipeReader(server: self, connection: connection, pipe: pipe)
            mhdResponse = MHD_create_response_from_callback(
                accord_size_unknown(), 16_384, pipeReader, Unmanaged.passRetained(reader).toOpaque(), pipeReaderFree)
        case .events, .chunks:
            let stream = ChunkStream(server: self, connection: connection, chunks: response.chunks)
            mhdResponse = MHD_create_response_from_callback(
                accord_size_unknown(), 4_096, chunkReader, Unmanaged.passRetained(stream).toOpaque(), chunkStreamFree)
        }
        guard let mhdResponse else { return .NO }
        for header in response.headers { MHD_add_response_header(mhdResponse, header.name, header.value) }
        // Refused before its body was read: the rest of the stream cannot be trusted as a next request.
        if state.closesConnection { MHD_add_response_header(mhdResponse, "Connection", "close") }
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }

    /// Parks the connection and wakes it after `milliseconds`, without holding a worker.
    func suspend(_ connection: OpaquePointer, for milliseconds: Int) {
        let handle = park(connection)
        timers.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [self] in wake(handle) }
    }

    /// Parks the connection until ``wake(_:)``; MHD calls no handler for it meanwhile.
    func park(_ connection: OpaquePointer) -> ConnectionHandle {
        let handle = ConnectionHandle(pointer: connection)
        suspended.withLock { _ = $0.insert(handle) }
        MHD_suspend_connection(connection)
        return handle
    }

    /// Resumes a parked connection, once; a connection no longer parked (woken already,
    /// or the server stopped) is left alone.
    func wake(_ handle: ConnectionHandle) {
        guard suspended.withLock({ $0.remove(handle) }) != nil else { return }
        MHD_resume_connection(handle.pointer)
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
