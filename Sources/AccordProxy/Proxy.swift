import AccordHTTP
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
        /// Streamed answers (an endpoint's event stream) passing through at once, on
        /// workers of their own: a stream lasts as long as its reader takes, so it never
        /// holds a worker that ordinary requests wait for.
        public var streamWorkers = 32
        /// How long a stream's reader may take nothing before the stream is cut (a reader
        /// that stopped reading would hold its worker and its buffer forever).
        public var streamStallSeconds = 30
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
    /// The most bytes of an upstream answer's header lines; more is 502 `upstream_too_large`.
    public static let answerHeadLimit = 16 << 10
    /// The bytes of upstream answers checked at once, unless ``Configuration/maxAnswerBytes``
    /// is larger (``CheckBudget``): two answers at the default limit, or many small ones.
    public static let checkBudgetBytes = 32 << 20
    /// The memory of each client connection the proxy's server needs: the request head and
    /// the answer's header lines share it, so it holds an answer head at its limit beside
    /// a request head of 14 KiB.
    public static let connectionMemoryBytes = 32 << 10

    /// Whether an answer with these headers fits the client's connection beside the request's head;
    /// one that does not would end the connection with no answer at all.
    static func fits(_ headers: [(name: String, value: String)], after request: MockRequest) -> Bool {
        let requestHead = request.headers.reduce(request.method.utf8.count + request.target.utf8.count + 16) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        let answerHead = headers.reduce(64) { $0 + $1.name.utf8.count + $1.value.utf8.count + 4 }
        return answerHead <= answerHeadLimit && requestHead + answerHead + 1_024 <= connectionMemoryBytes
    }

    public let configuration: Configuration
    public let gate: ForwardingGate
    private let workers: UpstreamWorkers
    private let streamWorkers: UpstreamWorkers
    private let recorder: FixtureRecorder?
    /// Room for the answers being read into JSON trees at once.
    let checkBudget: CheckBudget

    /// Starts the upstream workers; fails when libcurl cannot start.
    public init(configuration: Configuration, gate: ForwardingGate, recorder: FixtureRecorder? = nil) throws(HTTPClient.Failure) {
        self.configuration = configuration
        self.gate = gate
        self.recorder = recorder
        checkBudget = CheckBudget(capacity: max(Self.checkBudgetBytes, configuration.maxAnswerBytes))
        var client = HTTPClient.Configuration()
        client.timeoutMilliseconds = configuration.timeoutMilliseconds
        client.maxBodyBytes = configuration.maxAnswerBytes
        client.maxHeaderBytes = Self.answerHeadLimit
        client.caFile = configuration.caFile
        workers = try UpstreamWorkers(count: configuration.workers, queueLimit: configuration.queueLimit, configuration: client, name: "upstream")
        streamWorkers = try UpstreamWorkers(count: configuration.streamWorkers, queueLimit: configuration.queueLimit, configuration: client,
                                            name: "upstream-stream")
    }

    /// The answer to `request`: at once when the gate answers, else once the upstream has.
    public func reply(to request: MockRequest) -> HTTPServer.Reply {
        switch gate.admit(request) {
        case .answer(let response):
            return .now(response)
        case .forward(let forwarding):
            let pool = forwarding.wantsStream ? streamWorkers : workers
            return .later { [self] deliver in
                let queued = pool.submit { [self] client in forward(request, forwarding, with: client, deliver: deliver) }
                if !queued {
                    deliver(gate.upstreamFailure(.saturated, message: "all \(pool.count) upstream workers are busy and "
                                                 + "\(pool.queueLimit) requests wait already", for: forwarding))
                }
            }
        }
    }

    /// Lets requests waiting for the upstream finish, then ends the workers.
    public func stop() {
        workers.stop()
        streamWorkers.stop()
    }

    private func forward(_ request: MockRequest, _ forwarding: Forwarding, with client: HTTPClient,
                         deliver: @escaping @Sendable (MockResponse) -> Void) {
        // The gate refuses a target that is not a path, so there is always a URL here.
        guard let url = configuration.upstream.url(for: request.target) else {
            deliver(gate.upstreamFailure(.failed, message: "the request target is not a path", for: forwarding))
            return
        }
        let outgoing = HTTPClient.Request(method: request.method, url: url, headers: ForwardedHeaders.upstream(request), body: request.body)
        // A stream passes through unless an injected fault must spoil the whole answer.
        let passesStreams = forwarding.wantsStream && !forwarding.spoilsAnswer
        var tee: StreamTee?
        do {
            let answer = try client.send(outgoing, streaming: forwarding.wantsStream) { [self] head in
                guard passesStreams, ResponseChecker.isEventStream(head.header("content-type")), Self.fits(head.headers, after: request) else { return nil }
                let stream = StreamTee(limit: Self.streamCheckLimit, stallSeconds: configuration.streamStallSeconds)
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
        guard delivered || Self.fits(answer.headers, after: request) else {
            deliver(gate.upstreamFailure(.tooLarge, message: "the upstream's answer headers do not fit the proxy's \(Self.connectionMemoryBytes) bytes "
                                         + "for a request head and an answer head together", for: forwarding))
            return
        }
        let encoded = answer.header("content-encoding").map { $0.lowercased() != "identity" } ?? false
        // Reading the answer into a tree (its check, its fixture) waits for room beside the others being read.
        let size = if case .bytes(let bytes) = answer.body { bytes.count } else { 0 }
        let check = checkBudget.withRoom(for: size) {
            let check = encoded ? AnswerCheck(code: nil, violations: []) : gate.check(answer, for: forwarding)
            if let recorder, !forwarding.isInjected, !encoded, let endpoint = forwarding.endpoint {
                recorder.record(answer, to: request, endpoint: endpoint, forwarding: forwarding)
            }
            return check
        }
        var prepared = delivered ? answer : gate.prepare(answer, for: forwarding)
        if configuration.annotates && forwarding.endpoint != nil && !delivered {
            prepared.headers.append((Self.violationsHeader, String(forwarding.violationCount(check))))
        }
        prepared = gate.record(prepared, for: forwarding, check: check)
        if !delivered { deliver(prepared) }
    }

    private func response(_ status: Int, _ headers: [(name: String, value: String)], body: MockResponse.Body) -> MockResponse {
        MockResponse(status: status, headers: ForwardedHeaders.downstream(headers), body: body, summary: .init(source: "upstream", verdict: .ok))
    }
}

/// A stream on its way to the client, and the first bytes of it kept for the check at
/// its end (cut at the last whole event).
final class StreamTee: @unchecked Sendable {
    let pipe: BodyPipe
    private let limit: Int
    // Written by the one upstream worker that writes the stream, read by it at the end.
    private var copy: [UInt8] = []

    init(limit: Int, stallSeconds: Int) {
        self.limit = limit
        pipe = BodyPipe(capacity: 256 << 10, stallTimeout: .seconds(stallSeconds))
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
