import AccordHTTPClient
import AccordMock
import AccordServer
import AccordValidation
import Foundation

/// `accord proxy`: the app's requests pass the mock's checks (``ForwardingGate``), go to
/// the real backend unchanged, and its answers come back unchanged after the contract
/// has been held to them; every violation is journaled and reported with its side.
///
/// A request waits for the upstream on one of ``Configuration/workers`` threads, its
/// connection parked meanwhile. An answer is read whole (within
/// ``Configuration/maxAnswerBytes``) so it can be checked (and annotated) before it
/// is sent, except a server-sent event stream, which is passed on as it arrives and
/// checked when it ends.
public final class Proxy: Sendable {
    /// How the proxy forwards.
    public struct Configuration: Sendable {
        public var upstream: UpstreamURL
        /// Add `X-Accord-Violations: N` to every checked answer (`--annotate`).
        public var annotates = false
        /// The deadline of an answer, connection included; for a stream, of its connection and of each silence.
        public var timeoutMilliseconds = 10_000
        /// A PEM file of CAs to trust for an HTTPS upstream instead of the system's.
        public var caFile: String?
        /// The largest answer read from the upstream.
        public var maxAnswerBytes = 16 << 20
        /// Requests talking to the upstream at once.
        public var workers = 32
        /// Requests waiting for a worker before the proxy answers 503.
        public var queueLimit = 1_024

        public init(upstream: UpstreamURL) {
            self.upstream = upstream
        }
    }

    /// The header ``Configuration/annotates`` adds.
    public static let violationsHeader = "X-Accord-Violations"
    /// The most bytes of a stream kept to check its events when it ends.
    static let streamCheckLimit = 1 << 20

    public let configuration: Configuration
    public let gate: ForwardingGate
    private let workers: UpstreamWorkers
    private let recorder: FixtureRecorder?

    /// Starts the upstream workers; fails when libcurl cannot start.
    public init(configuration: Configuration, gate: ForwardingGate, recorder: FixtureRecorder? = nil) throws(HTTPClient.Failure) {
        self.configuration = configuration
        self.gate = gate
        self.recorder = recorder
        var client = HTTPClient.Configuration()
        client.timeoutMilliseconds = configuration.timeoutMilliseconds
        client.maxBodyBytes = configuration.maxAnswerBytes
        client.caFile = configuration.caFile
        workers = try UpstreamWorkers(count: configuration.workers, queueLimit: configuration.queueLimit, configuration: client)
    }

    /// The answer to `request`: at once when the gate answers, else once the upstream has.
    public func reply(to request: MockRequest) -> HTTPServer.Reply {
        switch gate.admit(request) {
        case .answer(let response):
            return .now(response)
        case .forward(let forwarding):
            return .later { [self] deliver in
                let queued = workers.submit { [self] client in forward(request, forwarding, with: client, deliver: deliver) }
                if !queued {
                    deliver(gate.upstreamFailure(.saturated, message: "all \(configuration.workers) upstream workers are busy and "
                                                 + "\(workers.queueLimit) requests wait already", for: forwarding))
                }
            }
        }
    }

    /// Lets requests waiting for the upstream finish, then ends the workers.
    public func stop() {
        workers.stop()
    }

    private func forward(_ request: MockRequest, _ forwarding: Forwarding, with client: HTTPClient,
                         deliver: @escaping @Sendable (MockResponse) -> Void) {
        let outgoing = HTTPClient.Request(method: request.method, url: configuration.upstream.url(for: request.target),
                                          headers: ForwardedHeaders.upstream(request), body: request.body)
        // A stream passes through unless an injected fault must spoil the whole answer.
        let passesStreams = forwarding.wantsStream && !forwarding.spoilsAnswer
        var tee: StreamTee?
        do {
            let answer = try client.send(outgoing, streaming: forwarding.wantsStream) { [self] head in
                guard passesStreams, ResponseChecker.isEventStream(head.header("content-type")) else { return nil }
                let stream = StreamTee(limit: Self.streamCheckLimit)
                tee = stream
                deliver(gate.prepare(response(head.status, head.headers, body: .stream(stream.pipe)), for: forwarding))
                return { stream.write($0) }
            }
            if let tee {
                tee.pipe.finish()
                finish(response(answer.status, answer.headers, body: .bytes(tee.kept)), request, forwarding, delivered: true, deliver: deliver)
            } else {
                finish(response(answer.status, answer.headers, body: .bytes(answer.body)), request, forwarding, delivered: false, deliver: deliver)
            }
        } catch {
            if let tee {
                // The stream was cut after its head went out: the client sees a body cut short.
                tee.pipe.finish(failed: true)
                if error.kind != .readerGone {
                    _ = gate.upstreamFailure(.failed, message: "the upstream's stream broke: \(error.description)", for: forwarding)
                }
                return
            }
            let cause: ForwardingGate.UpstreamFailure = switch error.kind {
            case .connection: .unreachable
            case .timeout: .timeout
            case .tooLarge: .tooLarge
            case .notHTTP, .other, .readerGone: .failed
            }
            deliver(gate.upstreamFailure(cause, message: "the upstream \(configuration.upstream) did not answer: \(error.description)", for: forwarding))
        }
    }

    /// Checks, records and (unless its stream went out already) delivers an answer.
    private func finish(_ answer: MockResponse, _ request: MockRequest, _ forwarding: Forwarding, delivered: Bool,
                        deliver: @Sendable (MockResponse) -> Void) {
        let encoded = answer.header("content-encoding").map { $0.lowercased() != "identity" } ?? false
        let check = encoded ? AnswerCheck(code: nil, violations: []) : gate.check(answer, for: forwarding)
        var prepared = delivered ? answer : gate.prepare(answer, for: forwarding)
        if configuration.annotates && forwarding.endpoint != nil && !delivered {
            prepared.headers.append((Self.violationsHeader, String(forwarding.violationCount(check))))
        }
        prepared = gate.record(prepared, for: forwarding, check: check)
        if let recorder, !forwarding.isInjected, !encoded, let endpoint = forwarding.endpoint {
            recorder.record(answer, to: request, endpoint: endpoint, forwarding: forwarding)
        }
        if !delivered { deliver(prepared) }
    }

    private func response(_ status: Int, _ headers: [(name: String, value: String)], body: MockResponse.Body) -> MockResponse {
        MockResponse(status: status, headers: ForwardedHeaders.downstream(headers), body: body, summary: .init(source: "upstream", verdict: .ok))
    }
}

/// A stream on its way to the client, and the first bytes of it kept for the check at
/// its end (cut at the last whole event).
final class StreamTee: @unchecked Sendable {
    let pipe = BodyPipe()
    private let limit: Int
    // Written by the one upstream worker that writes the stream, read by it at the end.
    private var copy: [UInt8] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Passes `bytes` on; false once the client is gone.
    func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if copy.count < limit { copy += bytes.prefix(limit - copy.count) }
        return pipe.write(bytes)
    }

    /// The kept bytes up to the last event boundary (a blank line).
    var kept: [UInt8] {
        guard copy.count >= limit else { return copy }
        var end = copy.count
        while end >= 2 && !(copy[end - 1] == 0x0A && copy[end - 2] == 0x0A) { end -= 1 }
        return Array(copy[..<max(0, end)])
    }
}
