import AccordCapture
import AccordContract
import AccordJSON
import AccordMock
import AccordReport
import AccordValidation
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
                try ReportFile.write(report.rendered(as: reportOptions.format, failsUncovered: reportOptions.failOn.contains(.uncovered)), to: path)
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
        let host: String?
        let requests: RequestChecker
        let responses: ResponseChecker
        let console: Console?
        let observations = Observations()
        var skipped = 0
        var unchecked = 0
        var printed = 0
        /// Endpoints by id, for the response check.
        private let endpoints: [String: Endpoint]

        init(contract: Contract, host: String?, verifiesSignatures: Bool, console: Console?) {
            self.contract = contract
            self.host = host
            requests = RequestChecker(contract: contract, verifiesSignatures: verifiesSignatures)
            responses = ResponseChecker(contract: contract)
            self.console = console
            endpoints = Dictionary(contract.endpoints.map { ($0.id, $0) }) { first, _ in first }
        }

        mutating func check(file: String) throws(CaptureError) {
            if try Self.isHAR(file) {
                try HARFile(path: file).forEach { exchange throws(CaptureError) in check(exchange) }
            } else {
                try JSONLines(path: file).forEach { line, number throws(CaptureError) in
                    check(try JournalLine.exchange(line, origin: "\(file):\(number)"))
                }
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

        mutating func check(_ exchange: CapturedExchange) {
            if let host {
                if let entryHost = exchange.host, entryHost != host { skipped += 1; return }
            } else if !exchange.path.hasPrefix(contract.service.basePath) {
                skipped += 1
                return
            }
            if exchange.recordedVerdict.flatMap(Verdict.init(rawValue:)).map({ !$0.isObserved }) ?? false { return }
            if exchange.omittedBodyBytes != nil {
                unchecked += 1
                return
            }
            let request = MockRequest(method: exchange.method, target: exchange.target, headers: exchange.headers, body: exchange.body)
            var observation = requests.check(request, sentAt: exchange.time ?? 0)
            if let id = observation.endpoint, let endpoint = endpoints[id], let response = exchange.response {
                observation.failures += check(response, of: endpoint, observation: &observation)
            }
            for index in observation.failures.indices { observation.failures[index].origin = exchange.origin }
            print(observation, exchange: exchange)
            observations.record(observation)
        }

        /// The answer's violations; a redirect is not an answer of the contract and is not checked.
        private func check(_ response: CapturedExchange.Response, of endpoint: Endpoint, observation: inout Observation) -> [Observation.Failure] {
            guard response.redirect == nil, !(300..<400).contains(response.status) else { return [] }
            let violations: [Violation]
            if let body = response.body {
                violations = responses.check(endpoint: endpoint, status: response.status, contentType: response.contentType, body: body)
                if case .int(let code)? = (try? JSONReader.read(body))?[contract.service.envelope.code] { observation.code = code }
            } else if let code = response.code {
                violations = responses.check(endpoint: endpoint, status: response.status, code: code)
                observation.code = code
            } else {
                return []
            }
            return violations.map { violation in
                Observation.Failure(side: .response, kind: "response", message: violation.message, details: .object([
                    .init("status", .int(response.status)), .init("pointer", .string(violation.pointer)),
                    .init("expected", .string(violation.expected)), .init("actual", .string(violation.actual)),
                ]))
            }
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
