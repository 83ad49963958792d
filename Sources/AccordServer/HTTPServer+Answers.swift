import AccordHTTP
internal import CMicroHTTPD
import Foundation
import Synchronization

// The engine's answer to a request: at once, after a delay, or later from another
// thread, with the connection parked (no worker waits) meanwhile.
extension HTTPServer {
    /// The engine's request, kept in `state` for the observer.
    func request(for state: RequestState, connection: OpaquePointer, framingProblem: String?) -> MockRequest {
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
    func answer(_ connection: OpaquePointer, state: RequestState, framingProblem: String?) -> MHD_Result {
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
    func deliver(_ response: MockResponse, to handle: ConnectionHandle, state: RequestState) {
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

    func queue(_ response: MockResponse, on connection: OpaquePointer, state: RequestState) -> MHD_Result {
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
}
