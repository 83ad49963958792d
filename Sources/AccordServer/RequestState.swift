import AccordHTTP
internal import CMicroHTTPD

/// A connection pointer that can cross threads; MHD owns it.
struct ConnectionHandle: @unchecked Sendable, Hashable {
    let pointer: OpaquePointer
}

/// One request's state across MHD's calls to the access handler, which come on one
/// thread at a time; ``pending`` is also written by a later answer's thread, under the
/// server's lock of parked connections.
final class RequestState: @unchecked Sendable {
    /// The request target as sent (path and query, still percent-encoded).
    let target: String
    let start = ContinuousClock.now
    var method = ""
    /// Set at the first call of the access handler, when the head is complete.
    var headers: HTTPHeaders?
    /// The connection's deadlines, from its socket context.
    var clock: ConnectionRegistry.Clock?
    var body: [UInt8] = []
    /// The largest body this request may send (set when the head shows a body).
    var bodyLimit = 0
    var bodyLimitExceeded = false
    /// The bytes of the server's body budget this request holds.
    var reservedBodyBytes = 0
    /// After a body was cut off: how much more of it is read and dropped before the close.
    var lingerBytes = 0
    /// The body would have passed the server's budget of bodies in flight.
    var bodyBudgetExhausted = false
    /// Answered before the body was read: the connection closes after the answer.
    var closesConnection = false
    var request: MockRequest?
    /// Waiting out its delay, or delivered later by another thread.
    var pending: MockResponse?
    var response: MockResponse?

    init(target: String) {
        self.target = target
    }
}

/// A body sent in pieces with pauses (server-sent events, slow bodies), fed to MHD as it asks.
final class ChunkStream {
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

/// A body written by another thread (``BodyPipe``), fed to MHD as it arrives: when
/// nothing waits, the connection is parked until the writer wakes it.
final class PipeReader {
    unowned let server: HTTPServer
    let connection: OpaquePointer
    let pipe: BodyPipe

    init(server: HTTPServer, connection: OpaquePointer, pipe: BodyPipe) {
        self.server = server
        self.connection = connection
        self.pipe = pipe
    }

    func read(into buffer: UnsafeMutablePointer<CChar>, max: Int) -> Int {
        switch pipe.read(into: UnsafeMutableRawBufferPointer(start: buffer, count: max)) {
        case .bytes(let count):
            return count
        case .end:
            return accord_end_of_stream()
        case .failed:
            return accord_end_with_error()
        case .empty:
            let handle = server.park(connection)
            server.watchForHangUp(handle, descriptor: accord_connection_fd(connection), pipe: pipe)
            pipe.whenReadable { [server] in
                server.stopWatching(handle)
                server.wake(handle)
            }
            return 0
        }
    }
}
