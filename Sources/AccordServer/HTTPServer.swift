internal import CMicroHTTPD
import AccordMock
import Dispatch
import Foundation
import Synchronization

/// An HTTP/1.1 server on libmicrohttpd that hands every request to a handler and
/// writes back its ``MockResponse``.
///
/// Keep-alive, an epoll worker pool, delays and server-sent events without blocking a
/// worker (the connection is suspended and resumed by a timer), a body limit, and a
/// graceful stop that lets requests in flight finish.
public final class HTTPServer: @unchecked Sendable {
    /// Where and how to listen.
    public struct Configuration: Sendable {
        /// An IPv4 address; loopback by default.
        public var host: String
        /// 0 asks the system for a free port (see ``port``).
        public var port: UInt16
        public var threads: Int
        public var maxBodyBytes: Int
        public var connectionTimeoutSeconds: Int

        public init(host: String = "127.0.0.1", port: UInt16 = 8080, threads: Int = ProcessInfo.processInfo.activeProcessorCount,
                    maxBodyBytes: Int = 1 << 20, connectionTimeoutSeconds: Int = 30) {
            self.host = host
            self.port = port
            self.threads = max(1, threads)
            self.maxBodyBytes = maxBodyBytes
            self.connectionTimeoutSeconds = connectionTimeoutSeconds
        }
    }

    /// Why the server could not start.
    public struct StartError: Error, CustomStringConvertible {
        public var description: String
    }

    /// Answers one request; called on a worker thread.
    public typealias Handler = @Sendable (MockRequest) -> MockResponse
    /// Told about every answered request, with its latency in microseconds.
    public typealias Observer = @Sendable (MockRequest, MockResponse, Int) -> Void

    public let configuration: Configuration
    private let handler: Handler
    private let observer: Observer?
    private var daemon: OpaquePointer?
    private let inFlight = Atomic<Int>(0)
    private let suspended = Mutex<Set<ConnectionHandle>>([])
    private let timers = DispatchQueue(label: "accord.http.timers")

    public init(configuration: Configuration, handler: @escaping Handler, observer: Observer? = nil) {
        self.configuration = configuration
        self.handler = handler
        self.observer = observer
    }

    deinit {
        if let daemon { MHD_stop_daemon(daemon) }
    }

    /// The bound port, once started.
    public private(set) var port: UInt16 = 0

    /// Starts listening; returns when the socket is bound.
    public func start() throws(StartError) {
        let context = Unmanaged.passUnretained(self).toOpaque()
        guard let daemon = accord_start_daemon(
            configuration.host, configuration.port, UInt32(configuration.threads), UInt32(configuration.connectionTimeoutSeconds),
            accessHandler, context, completedHandler, context
        ) else {
            throw StartError(description: "cannot listen on \(configuration.host):\(configuration.port) (address in use, or not an IPv4 address?)")
        }
        self.daemon = daemon
        port = accord_daemon_port(daemon)
    }

    /// Stops accepting connections, waits up to `grace` for requests in flight, then
    /// closes everything. Returns how many requests were still running at the deadline.
    @discardableResult
    public func stop(grace: Duration = .milliseconds(1_500)) -> Int {
        guard let daemon else { return 0 }
        let listener = MHD_quiesce_daemon(daemon)
        if listener >= 0 { close(listener) }
        let deadline = ContinuousClock.now + grace
        while inFlight.load(ordering: .acquiring) > 0 && ContinuousClock.now < deadline {
            Thread.sleep(forTimeInterval: 0.005)
        }
        let unfinished = inFlight.load(ordering: .acquiring)
        // MHD must not be stopped with suspended connections.
        for connection in suspended.withLock({ Array($0) }) { MHD_resume_connection(connection.pointer) }
        MHD_stop_daemon(daemon)
        self.daemon = nil
        return unfinished
    }

    // MARK: Requests

    fileprivate func handle(connection: OpaquePointer, url: String, method: String, upload: UnsafePointer<CChar>?,
                            uploadSize: UnsafeMutablePointer<Int>, slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>) -> MHD_Result {
        guard let existing = slot.pointee else {
            // First call: headers only. Set up the request's state.
            inFlight.add(1, ordering: .relaxed)
            let state = RequestState(method: method, path: url)
            if let length = Self.value(connection, .HEADER_KIND, "Content-Length").flatMap(Int.init), length > configuration.maxBodyBytes {
                state.bodyLimitExceeded = true
            }
            slot.pointee = Unmanaged.passRetained(state).toOpaque()
            return .YES
        }
        let state = Unmanaged<RequestState>.fromOpaque(existing).takeUnretainedValue()
        if uploadSize.pointee > 0 {
            if !state.bodyLimitExceeded, let upload {
                if state.body.count + uploadSize.pointee > configuration.maxBodyBytes {
                    state.bodyLimitExceeded = true
                    state.body = []
                } else {
                    upload.withMemoryRebound(to: UInt8.self, capacity: uploadSize.pointee) {
                        state.body.append(contentsOf: UnsafeBufferPointer(start: $0, count: uploadSize.pointee))
                    }
                }
            }
            uploadSize.pointee = 0
            return .YES
        }
        if let pending = state.pending {
            // Resumed after a delay.
            suspended.withLock { _ = $0.remove(ConnectionHandle(pointer: connection)) }
            return queue(pending, on: connection, state: state)
        }
        var request = MockRequest(method: state.method, path: state.path, query: Self.pairs(connection, .GET_ARGUMENT_KIND),
                                  headers: Self.pairs(connection, .HEADER_KIND), body: state.body,
                                  bodyLimitExceeded: state.bodyLimitExceeded)
        request.isFromLoopback = accord_client_is_loopback(connection) != 0
        state.request = request
        let response = handler(request)
        if response.delayMilliseconds > 0 {
            state.pending = response
            suspend(connection, for: response.delayMilliseconds)
            return .YES
        }
        return queue(response, on: connection, state: state)
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
        if case .bytes(let bytes) = response.body {
            mhdResponse = bytes.withUnsafeBytes { buffer in
                MHD_create_response_from_buffer(buffer.count, UnsafeMutableRawPointer(mutating: buffer.baseAddress), .RESPMEM_MUST_COPY)
            }
        } else {
            let stream = ChunkStream(server: self, connection: connection, chunks: response.chunks)
            mhdResponse = MHD_create_response_from_callback(
                accord_size_unknown(), 4_096, chunkReader, Unmanaged.passRetained(stream).toOpaque(), chunkStreamFree)
        }
        guard let mhdResponse else { return .NO }
        for header in response.headers { MHD_add_response_header(mhdResponse, header.name, header.value) }
        let result = MHD_queue_response(connection, UInt32(response.status), mhdResponse)
        MHD_destroy_response(mhdResponse)
        return result
    }

    /// Parks the connection and wakes it after `milliseconds`, without holding a worker.
    fileprivate func suspend(_ connection: OpaquePointer, for milliseconds: Int) {
        let handle = ConnectionHandle(pointer: connection)
        suspended.withLock { _ = $0.insert(handle) }
        MHD_suspend_connection(connection)
        timers.asyncAfter(deadline: .now() + .milliseconds(milliseconds)) { [self] in
            guard suspended.withLock({ $0.remove(handle) }) != nil else { return }
            MHD_resume_connection(handle.pointer)
        }
    }

    fileprivate func completed(_ slot: UnsafeMutablePointer<UnsafeMutableRawPointer?>?) {
        guard let raw = slot?.pointee else { return }
        slot?.pointee = nil
        let state = Unmanaged<RequestState>.fromOpaque(raw).takeRetainedValue()
        inFlight.subtract(1, ordering: .relaxed)
        if let observer, let request = state.request, let response = state.response {
            observer(request, response, Int((ContinuousClock.now - state.start) / .microseconds(1)))
        }
    }

    // MARK: Reading MHD values

    private static func value(_ connection: OpaquePointer, _ kind: MHD_ValueKind, _ key: String) -> String? {
        MHD_lookup_connection_value(connection, kind, key).map { String(cString: $0) }
    }

    /// Every key/value of `kind`, in order (repeated keys included), already decoded by MHD.
    private static func pairs(_ connection: OpaquePointer, _ kind: MHD_ValueKind) -> [(String, String)] {
        final class Collector {
            var pairs: [(String, String)] = []
        }
        let collector = Collector()
        withExtendedLifetime(collector) {
            _ = MHD_get_connection_values(connection, kind, { context, _, key, value in
                guard let context, let key else { return .YES }
                let collector = Unmanaged<Collector>.fromOpaque(context).takeUnretainedValue()
                collector.pairs.append((String(cString: key), value.map { String(cString: $0) } ?? ""))
                return .YES
            }, Unmanaged.passUnretained(collector).toOpaque())
        }
        return collector.pairs
    }
}

/// A connection pointer that can cross threads; MHD owns it.
struct ConnectionHandle: @unchecked Sendable, Hashable {
    let pointer: OpaquePointer
}

/// One request's state across MHD's calls to the access handler.
private final class RequestState {
    let method: String
    let path: String
    let start = ContinuousClock.now
    var body: [UInt8] = []
    var bodyLimitExceeded = false
    var request: MockRequest?
    /// Waiting out its delay.
    var pending: MockResponse?
    var response: MockResponse?

    init(method: String, path: String) {
        self.method = method
        self.path = path
    }
}

/// A body sent in pieces with pauses (server-sent events, slow bodies), fed to MHD as it asks.
private final class ChunkStream {
    unowned let server: HTTPServer
    let connection: OpaquePointer
    let chunks: [MockResponse.Chunk]
    var index = 0
    var offset = 0
    var waited = false

    init(server: HTTPServer, connection: OpaquePointer, chunks: [MockResponse.Chunk]) {
        self.server = server
        self.connection = connection
        self.chunks = chunks
    }

    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        guard index < chunks.count else { return accord_end_of_stream() }
        let chunk = chunks[index]
        if offset == 0, chunk.delayMilliseconds > 0, !waited {
            waited = true
            server.suspend(connection, for: chunk.delayMilliseconds)
            return 0
        }
        let bytes = chunk.bytes
        let count = min(max, bytes.count - offset)
        bytes.withUnsafeBufferPointer { source in
            guard let start = source.baseAddress, count > 0 else { return }
            buffer.withMemoryRebound(to: UInt8.self, capacity: count) { $0.update(from: start + offset, count: count) }
        }
        offset += count
        if offset == bytes.count {
            index += 1
            offset = 0
            waited = false
        }
        return count
    }
}

private let accessHandler: MHD_AccessHandlerCallback = { context, connection, url, method, _, upload, uploadSize, slot in
    guard let context, let connection, let url, let method, let uploadSize, let slot else { return .NO }
    let server = Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue()
    return server.handle(connection: connection, url: String(cString: url), method: String(cString: method),
                         upload: upload, uploadSize: uploadSize, slot: slot)
}

private let completedHandler: MHD_RequestCompletedCallback = { context, _, slot, _ in
    guard let context else { return }
    Unmanaged<HTTPServer>.fromOpaque(context).takeUnretainedValue().completed(slot)
}

private let chunkReader: MHD_ContentReaderCallback = { context, _, buffer, max in
    guard let context, let buffer else { return accord_end_of_stream() }
    return Unmanaged<ChunkStream>.fromOpaque(context).takeUnretainedValue().read(into: buffer, max: max)
}

private let chunkStreamFree: MHD_ContentReaderFreeCallback = { context in
    guard let context else { return }
    Unmanaged<ChunkStream>.fromOpaque(context).release()
}
