import AccordCapture
import AccordContract
import AccordFiles
import AccordHTTP
import AccordJSON
import AccordMock
import AccordReport
import AccordSync
import AccordValidation
import Dispatch
import Foundation

/// `accord check-requests FILE…`: captured traffic (HAR 1.2, or an `accord serve
/// --record` journal) judged against the contracts, offline, by the server's own
/// stages; the answers too, where the capture has them.
struct CheckRequestsCommand: Subcommand {
    let name = "check-requests"
    let abstract = "Check captured traffic (HAR files, --record journals) against the contracts."
    let positionals: String? = "FILE…"
    let options = [
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "host", valueName: "HOST", help: "Check only requests to HOST (default: those under the contract's base path)."),
        Arguments.Option(name: "app-secret", valueName: "KEY:SECRET", help: "The secret of app key KEY, if not the contract's; repeatable."),
        Arguments.Option(name: "no-sign", valueName: nil, help: "Do not check X-Sign, timestamps and nonces."),
        Arguments.Option(name: "fail-on", valueName: "LIST", help: "Also exit 1 when an endpoint was never called: 'uncovered'."),
        Arguments.Option(name: "quiet", valueName: nil, help: "Print only the summary."),
    ] + ReportOptions.options

    /// The most problems printed; the report has every endpoint's first ones.
    static let printedLimit = 1_000

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        let files = arguments.positionals
        let reportOptions: (path: String?, format: ContractReport.Format, failOn: Set<ContractReport.FailCondition>)
        var secrets: [String: String] = [:]
        do throws(UsageError) {
            guard !files.isEmpty else { throw UsageError("give one or more capture files: a .har file or a --record journal") }
            reportOptions = try ReportOptions.parse(arguments)
            for text in arguments.all("app-secret") {
                guard let colon = text.firstIndex(of: ":"), colon != text.startIndex else {
                    throw UsageError("'--app-secret' takes KEY:SECRET, found '\(text)'")
                }
                secrets[String(text[..<colon])] = String(text[text.index(after: colon)...])
            }
        } catch {
            console.printError("error: \(error.message)\n\n\(help)")
            return 2
        }
        guard var contract = loadContract(arguments, console: console) else { return 2 }
        contract.service.signing.apps.merge(secrets) { $1 }
        var run = Run(contract: contract, host: arguments["host"], verifiesSignatures: !arguments.has("no-sign"),
                      console: arguments.has("quiet") ? nil : console)
        var inputError: CaptureError?
        for file in files {
            do {
                try run.check(file: file)
            } catch {
                inputError = error
                break
            }
        }
        let report = ContractReport(title: "accord check-requests", contract: contract, answers: [:], observed: run.observations.snapshot)
        if run.printed > Self.printedLimit { console.print("… \(run.printed - Self.printedLimit) more problems (see --report)") }
        var notes = ""
        if run.skipped > 0 { notes += ", \(run.skipped) skipped (other hosts)" }
        if run.unchecked > 0 { notes += ", \(run.unchecked) not checked again (bodies the journal left out)" }
        console.print("accord check-requests: \(report.summary)\(notes)")
        if let path = reportOptions.path {
            do {
                try AtomicFile.write(report.rendered(as: reportOptions.format, failsUncovered: reportOptions.failOn.contains(.uncovered)), to: path)
            } catch {
                console.printError("error: \(error)")
                return 2
            }
        }
        if let inputError {
            console.printError("error: \(inputError)")
            return 2
        }
        return report.violations > 0 || !report.met(reportOptions.failOn).isEmpty ? 1 : 0
    }
}

extension CheckRequestsCommand {
    /// One invocation's state: the checkers, the counts, what was printed.
    struct Run {
        let contract: Contract
        let requests: RequestChecker
        let responses: ResponseChecker
        let console: Console?
        let observations = Observations()
        var skipped = 0
        var unchecked = 0
        var printed = 0
        private let parser: EntryParser
        /// The batch being parsed in the background.
        private var pending: PendingBatch?
        /// A problem in the input ended the run.
        private var stopped = false
        /// Endpoints by id, for the response check.
        private let endpoints: [String: Endpoint]

        init(contract: Contract, host: String?, verifiesSignatures: Bool, console: Console?) {
            self.contract = contract
            requests = RequestChecker(contract: contract, verifiesSignatures: verifiesSignatures)
            responses = ResponseChecker(contract: contract)
            self.console = console
            endpoints = Dictionary(contract.endpoints.map { ($0.id, $0) }) { first, _ in first }
            parser = EntryParser(basePath: contract.service.basePath, host: host)
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
        mutating func check(file: String) throws(CaptureError) {
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
                    judged.append((exchange, requests.check(request, sentAt: exchange.time ?? 0)))
                case .otherHost: skipped += 1
                case .bodyLeftOut: unchecked += 1
                case .ignored: break
                }
            }
            let answers = judged.concurrentMap { [self] item in answerFailures(of: item.exchange, observation: item.observation) }
            for (index, item) in judged.enumerated() {
                var observation = item.observation
                if let code = answers[index].code { observation.code = code }
                observation.failures += answers[index].failures
                for failureIndex in observation.failures.indices { observation.failures[failureIndex].origin = item.exchange.origin }
                print(observation, exchange: item.exchange)
                observations.record(observation)
            }
            if let failure = batch.failure {
                stopped = true
                throw failure
            }
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

        /// The answer's violations and its business code; a redirect is not an answer of
        /// the contract and is not checked.
        private func answerFailures(of exchange: CapturedExchange, observation: Observation) -> (failures: [Observation.Failure], code: Int?) {
            guard let id = observation.endpoint, let endpoint = endpoints[id], let response = exchange.response,
                  response.redirect == nil, !(300..<400).contains(response.status) else { return ([], nil) }
            let violations: [Violation]
            var code: Int?
            if let body = response.body {
                violations = responses.check(endpoint: endpoint, status: response.status, contentType: response.contentType, body: body)
                if case .int(let value)? = (try? JSONReader.read(body))?[contract.service.envelope.code] { code = value }
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

        /// `capture.har:entry 17: POST /api/v1/signals: /body/content: expected at least 1 character …`
        private mutating func print(_ observation: Observation, exchange: CapturedExchange) {
            guard let console else { return }
            for failure in observation.failures {
                for line in Self.lines(failure) {
                    printed += 1
                    if printed <= CheckRequestsCommand.printedLimit {
                        console.print("\(exchange.origin): \(exchange.method) \(exchange.path): \(line)")
                    }
                }
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
}

/// Turns read entries into requests to judge, on every core: parsing, the host
/// filter, and building the request the server's stages take.
struct EntryParser: Sendable {
    /// What became of one entry.
    enum Item: Sendable {
        case check(CapturedExchange, MockRequest)
        /// Another host than `--host`, or a path outside the base path.
        case otherHost
        /// A journal entry whose body was too large to keep.
        case bodyLeftOut
        /// CORS and control traffic in a journal.
        case ignored
    }

    /// A batch parsed: its items up to the first problem, and that problem.
    struct Batch: Sendable {
        var items: [Item]
        var failure: CaptureError?
    }

    let basePath: String
    let host: String?

    func parse(_ entries: [CheckRequestsCommand.Run.Entry]) -> Batch {
        let results = entries.concurrentMap { entry -> Result<Item, CaptureError> in
            do throws(CaptureError) {
                let exchange = entry.isHAR ? try HARFile.exchange(entry.bytes, origin: entry.origin)
                                           : try JournalLine.exchange(entry.bytes, origin: entry.origin)
                return .success(item(for: exchange))
            } catch {
                return .failure(error)
            }
        }
        var batch = Batch(items: [])
        batch.items.reserveCapacity(results.count)
        for result in results {
            switch result {
            case .success(let item): batch.items.append(item)
            case .failure(let error): batch.failure = error; return batch
            }
        }
        return batch
    }

    private func item(for exchange: CapturedExchange) -> Item {
        if let host {
            if let entryHost = exchange.host, entryHost != host { return .otherHost }
        } else if !exchange.path.hasPrefix(basePath) {
            return .otherHost
        }
        if exchange.recordedVerdict.flatMap(Verdict.init(rawValue:)).map({ !$0.isObserved }) ?? false { return .ignored }
        if exchange.omittedBodyBytes != nil { return .bodyLeftOut }
        return .check(exchange, MockRequest(method: exchange.method, target: exchange.target, headers: exchange.headers, body: exchange.body))
    }
}

/// A batch parsed in the background while the one before it is judged.
final class PendingBatch: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Locked<EntryParser.Batch?>(nil)

    init(_ entries: [CheckRequestsCommand.Run.Entry], parser: EntryParser) {
        DispatchQueue.global().async { [done, result] in
            let batch = parser.parse(entries)
            result.withLock { $0 = batch }
            done.signal()
        }
    }

    /// The parsed batch, once it is.
    func wait() -> EntryParser.Batch {
        done.wait()
        return result.withLock { $0 } ?? EntryParser.Batch(items: [])
    }
}

extension Array where Element: Sendable {
    /// `map` on every core, in order: the array cut into a few chunks per core.
    func concurrentMap<T: Sendable>(_ transform: @escaping @Sendable (Element) -> T) -> [T] {
        let chunks = Swift.min(count, ProcessInfo.processInfo.activeProcessorCount * 4)
        guard chunks > 1 else { return map(transform) }
        let parts = Locked([[T]](repeating: [], count: chunks))
        let elements = self
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (elements.count * chunk / chunks)..<(elements.count * (chunk + 1) / chunks)
            let part = elements[range].map(transform)
            parts.withLock { $0[chunk] = part }
        }
        return parts.withLock { $0.flatMap { $0 } }
    }
}
