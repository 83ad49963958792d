import AccordContract
import AccordFlowConformance
import AccordHTTP
import AccordJSON
import AccordMock
import AccordReport
import AccordSync
import AccordValidation
import Dispatch
import Foundation

/// Captured traffic judged against the contracts, offline, by the server's own stages
/// (`accord check-requests`): each request by the mock's checks, each answer by the
/// contract's. Files are read in batches; each problem is handed to `problem` as a
/// line, in the order of the capture, and every exchange counts in ``observations``.
public struct CaptureCheck {
    let requests: RequestChecker
    let answers: AnswerJudge
    /// Receives each problem as a line: `capture.har:entry 17: POST /api/v1/signals: /body/content: …`.
    let problem: ((String) -> Void)?
    /// What the capture's exchanges did, for the report.
    public let observations = Observations()
    /// Entries to other hosts (or outside the base path) that were not judged.
    public private(set) var skipped = 0
    /// Journal entries whose bodies were left out, not judged again.
    public private(set) var unchecked = 0
    /// HAR entries whose binary parts the capture lost, not judged.
    public private(set) var lost = 0
    /// The flow rules over the capture's sessions, with `--check-flows`.
    public private(set) var flows: FlowChecker?
    /// Exchanges held to the flows so far (their number in the capture, for HAR files without journal numbers).
    private var flowed = 0
    private let parser: EntryParser
    /// The batch being parsed in the background.
    private var pending: PendingBatch?
    /// A problem in the input ended the run.
    private var stopped = false

    /// - Parameters:
    ///   - host: judge only requests to this host; without one, those under the base path.
    ///   - verifiesSignatures: false to skip X-Sign (the capture's app secret is unknown).
    ///   - problem: receives each problem as a line, or nil to count them only.
    public init(contract: Contract, host: String?, verifiesSignatures: Bool, checksFlows: Bool = false, problem: ((String) -> Void)?) {
        flows = checksFlows ? FlowChecker(rules: FlowRules(contract: contract)) : nil
        requests = RequestChecker(contract: contract, verifiesSignatures: verifiesSignatures)
        answers = AnswerJudge(contract: contract)
        self.problem = problem
        parser = EntryParser(basePath: contract.service.basePath, host: host, readsFlows: checksFlows)
    }

    /// How many entries are read before they are checked together.
    static let batchSize = 2_048

    /// One entry as read, not yet parsed.
    struct Entry: Sendable {
        var bytes: ArraySlice<UInt8>
        var origin: String
        var isHAR: Bool
    }

    /// Reads `file` in batches. Each batch is parsed on every core while the batch
    /// before it is judged, in order, on this thread (the nonce store and the clock
    /// follow the capture's order); answers are then checked on every core again.
    public mutating func check(file: String) throws(CaptureError) {
        var batch: [Entry] = []
        batch.reserveCapacity(Self.batchSize)
        do {
            if try Self.isHAR(file) {
                try HARFile(path: file).forEachEntry { bytes, number throws(CaptureError) in
                    batch.append(Entry(bytes: bytes, origin: "\(file):entry \(number)", isHAR: true))
                    if batch.count == Self.batchSize { try submit(&batch) }
                }
            } else {
                try JSONLines(path: file).forEach { line, number throws(CaptureError) in
                    batch.append(Entry(bytes: ArraySlice(Array(line)), origin: "\(file):\(number)", isHAR: false))
                    if batch.count == Self.batchSize { try submit(&batch) }
                }
            }
        } catch {
            // What was read whole before a problem in the file is still checked and reported.
            if !stopped {
                try submit(&batch)
                try finishPending()
            }
            throw error
        }
        try submit(&batch)
        try finishPending()
    }

    /// Starts parsing `batch` (emptying it), and judges the batch parsed before it meanwhile.
    private mutating func submit(_ batch: inout [Entry]) throws(CaptureError) {
        guard !batch.isEmpty else { return try finishPending() }
        let entries = batch
        batch.removeAll(keepingCapacity: true)
        let next = PendingBatch(entries, parser: parser)
        try finishPending()
        pending = next
    }

    /// Judges the batch being parsed, once it is; the first problem in it stops the run
    /// after the entries before it.
    private mutating func finishPending() throws(CaptureError) {
        guard let batch = pending?.wait() else { return }
        pending = nil
        var judged: [(exchange: CapturedExchange, observation: Observation)] = []
        judged.reserveCapacity(batch.items.count)
        for item in batch.items {
            switch item {
            case .check(let exchange, let request):
                // An OPTIONS request to a route is the server's own CORS answer, as `serve` counts it: none.
                guard var observation = requests.check(request, sentAt: exchange.time ?? 0) else { continue }
                if exchange.injected { observation.injected = true }
                judged.append((exchange, observation))
            case .otherHost: skipped += 1
            case .bodyLeftOut: unchecked += 1
            case .bodyLost: lost += 1
            case .ignored: break
            }
        }
        let answers = judged.concurrentMap { [answers] item in answers.failures(of: item.exchange, observation: item.observation) }
        for (index, item) in judged.enumerated() {
            var observation = item.observation
            if let code = answers[index].code { observation.code = code }
            observation.failures += answers[index].failures
            for failureIndex in observation.failures.indices { observation.failures[failureIndex].origin = item.exchange.origin }
            print(observation, exchange: item.exchange)
            observations.record(observation)
            hold(item.exchange, to: observation)
        }
        if let failure = batch.failure {
            stopped = true
            throw failure
        }
    }

    /// Hands an exchange, as the report counted it, to the flow rules (when they are checked
    /// and the capture has the times they need).
    private mutating func hold(_ exchange: CapturedExchange, to observation: Observation) {
        guard flows != nil, let sent = exchange.sentMicroseconds, let answered = exchange.answeredMicroseconds else { return }
        flowed += 1
        let sequence = exchange.journalSequence ?? flowed
        let nonceHeader = flows?.rules.nonceHeader
        var flowObservation = FlowObservation(sequence: sequence, sent: sent, answered: answered, session: exchange.session, endpoint: observation.endpoint,
                                              method: exchange.method, path: String(exchange.path), token: exchange.tokenTag, code: observation.code,
                                              fault: exchange.fault ?? Self.serverFault(exchange, code: observation.code))
        flowObservation.nonce = nonceHeader.flatMap { name in exchange.headers.first { $0.name.lowercased() == name }?.value }
        flowObservation.codeName = flows?.rules.codeName(of: observation.code) {
            exchange.journaledAnswer ?? exchange.response?.body.flatMap { try? JSONReader.read($0) }
        }
        flows?.observe(flowObservation)
    }

    /// A 5xx answer that is no code of the contract (a text body from a proxy or a crashed
    /// backend): a fault the retry policy speaks of, as the status.
    private static func serverFault(_ exchange: CapturedExchange, code: Int?) -> String? {
        guard let status = exchange.response?.status, (500...599).contains(status), code == nil else { return nil }
        return String(status)
    }

    /// The flow rules' findings, the calls still owed a retry counted; nil without `--check-flows`.
    public func flowReport() -> FlowReport? {
        guard var finished = flows else { return nil }
        finished.finish()
        return FlowReport(finished)
    }

    /// A `.har` file, or any file whose first member is `"log"`.
    private static func isHAR(_ file: String) throws(CaptureError) -> Bool {
        if file.lowercased().hasSuffix(".har") { return true }
        guard let handle = FileHandle(forReadingAtPath: file) else { throw CaptureError("\(file): cannot be read") }
        defer { try? handle.close() }
        let head = String(decoding: (try? handle.read(upToCount: 256)) ?? Data(), as: UTF8.self)
        let compact = head.filter { !$0.isWhitespace }
        return compact.hasPrefix("{\"log\"")
    }

    /// `capture.har:entry 17: POST /api/v1/signals: /body/content: expected at least 1 character …`
    private func print(_ observation: Observation, exchange: CapturedExchange) {
        guard let problem, !observation.injected else { return }
        for failure in observation.failures {
            for line in Self.lines(failure) { problem("\(exchange.origin): \(exchange.method) \(exchange.path): \(line)") }
        }
    }

    /// A failure as lines: one per violation, with its pointer.
    private static func lines(_ failure: Observation.Failure) -> [String] {
        let side = failure.side == .response ? "response " : ""
        if failure.side == .response {
            let pointer = failure.details["pointer"].flatMap { if case .string(let text) = $0, !text.isEmpty { text } else { nil } }
            return ["\(side)\(pointer.map { "\($0): " } ?? "")\(failure.message)"]
        }
        if case .array(let violations)? = failure.details["violations"], !violations.isEmpty {
            return violations.map { violation in
                let pointer = violation["pointer"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? ""
                let message = violation["message"].flatMap { if case .string(let text) = $0 { text } else { nil } } ?? ""
                return "\(pointer): \(message)"
            }
        }
        let reason = failure.details["reason"].flatMap { if case .string(let text) = $0 { text } else { nil } }
        return ["\(failure.kind): \(reason ?? failure.message)"]
    }
}

/// Holds a capture's answers to the contract, on any thread.
struct AnswerJudge: Sendable {
    let responses: ResponseChecker
    /// Endpoints by id.
    let endpoints: [String: Endpoint]
    let service: Service

    init(contract: Contract) {
        responses = ResponseChecker(contract: contract)
        endpoints = Dictionary(contract.endpoints.map { ($0.id, $0) }) { first, _ in first }
        service = contract.service
    }

    /// The answer's violations and its business code; a redirect is not an answer of
    /// the contract and is not checked.
    func failures(of exchange: CapturedExchange, observation: Observation) -> (failures: [Observation.Failure], code: Int?) {
        guard let id = observation.endpoint, let endpoint = endpoints[id], let response = exchange.response,
              response.redirect == nil, !(300..<400).contains(response.status) else { return ([], nil) }
        let violations: [Violation]
        var code: Int?
        if let body = response.body {
            violations = responses.check(endpoint: endpoint, status: response.status, contentType: response.contentType, body: body)
            code = service.code(of: try? JSONReader.read(body), status: response.status)
        } else if let recorded = response.code {
            violations = responses.check(endpoint: endpoint, status: response.status, code: recorded)
            code = recorded
        } else {
            return ([], nil)
        }
        let failures = violations.map { violation in
            Observation.Failure(side: .response, kind: "response", message: violation.message, details: .object([
                .init("status", .int(response.status)), .init("pointer", .string(violation.pointer)),
                .init("expected", .string(violation.expected)), .init("actual", .string(violation.actual)),
            ]))
        }
        return (failures, code)
    }
}
