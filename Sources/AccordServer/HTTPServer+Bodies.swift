import AccordHTTP
internal import CMicroHTTPD
import Foundation
import Synchronization

// A request's body: its limit, its share of the budget of bodies in flight, and the
// answer when it passes either before it is whole.
extension HTTPServer {
    /// The first call: the head is complete. Refuses what must not be read further, and
    /// sets the body's limit and reserves its declared length in the budget.
    func begin(_ state: RequestState, on connection: OpaquePointer, method: String) -> MHD_Result {
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
    func cutOff(_ connection: OpaquePointer, state: RequestState) -> MHD_Result {
        abandonBody(of: state)
        state.lingerBytes = Self.lingerBytes
        guard case .now(let response) = handler(request(for: state, connection: connection, framingProblem: nil)) else { return .NO }
        state.response = response
        guard configuration.tls == nil, case .bytes(let body) = response.body else { return .NO }
        let descriptor = accord_connection_fd(connection)
        let bytes = Self.wire(response, body: body)
        let sent = bytes.withUnsafeBytes { accord_send_without_signal(descriptor, $0.baseAddress, $0.count) }
        guard sent == bytes.count else { return .NO }
        shutdown(descriptor, Int32(SHUT_WR))
        return .YES
    }

    /// A whole answer as HTTP/1.1 bytes, for ``cutOff(_:state:)``.
    static func wire(_ response: MockResponse, body: [UInt8]) -> [UInt8] {
        var head = "HTTP/1.1 \(response.status) \(String(cString: MHD_get_reason_phrase_for(UInt32(response.status))))\r\n"
        for header in response.headers { head += "\(header.name): \(header.value)\r\n" }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        return Array(head.utf8) + body
    }

    /// Answers before the whole body is read (over its limit, or the budget); the connection closes after it.
    func refuse(_ connection: OpaquePointer, state: RequestState) -> MHD_Result {
        abandonBody(of: state)
        return answer(connection, state: state, framingProblem: nil)
    }

    /// A body refused before it is whole: what it holds goes, its share of the budget is
    /// given back, and the connection closes after the answer.
    private func abandonBody(of state: RequestState) {
        state.body = []
        release(state)
        state.closesConnection = true
    }

    /// Grows the request's share of the body budget to `bytes`; false when the budget cannot give it.
    func reserve(_ bytes: Int, for state: RequestState) -> Bool {
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
    func release(_ state: RequestState) {
        guard state.reservedBodyBytes > 0 else { return }
        bodyBytesInFlight.subtract(state.reservedBodyBytes, ordering: .relaxed)
        state.reservedBodyBytes = 0
    }
}
