import AccordContract
import AccordFlowConformance
import AccordJSON

/// Writes a ``ContractReport`` as JUnit XML, the form Jenkins, GitHub Actions
/// reporters and GitLab read: one `<testsuite>` per domain, one `<testcase>` per
/// endpoint; an endpoint's failures are one `<failure>` whose text lists them; an
/// endpoint never called is `<skipped>`, or a failure when uncovered endpoints fail the
/// run. Unknown routes form a suite of their own.
public struct JUnitWriter: Sendable {
    /// Whether an endpoint never called is a failure rather than skipped.
    public var failsUncovered: Bool

    public init(failsUncovered: Bool = false) {
        self.failsUncovered = failsUncovered
    }

    /// The document, UTF-8.
    public func document(_ report: ContractReport) -> String {
        var suites: [Suite] = []
        var domains: [String] = []
        var byDomain: [String: [ContractReport.EndpointResult]] = [:]
        for result in report.endpoints {
            if byDomain[result.endpoint.domain] == nil { domains.append(result.endpoint.domain) }
            byDomain[result.endpoint.domain, default: []].append(result)
        }
        for domain in domains {
            let results = byDomain[domain] ?? []
            suites.append(Suite(name: domain, cases: results.map(testCase), properties: [
                ("requests", String(results.reduce(0) { $0 + $1.tally.requests })),
                ("coverage.endpoints", "\(results.filter(\.isCovered).count)/\(results.count)"),
            ]))
        }
        if !report.unknownRoutes.isEmpty || report.otherUnknownRoutes > 0 {
            var cases = report.unknownRoutes.map { route, tally in
                Case(className: "accord.unknown-routes", name: route, outcome: .failed(
                    message: "\(tally.requests) request\(tally.requests == 1 ? "" : "s") to a route the contract does not declare",
                    text: Self.text(of: tally)))
            }
            if report.otherUnknownRoutes > 0 {
                cases.append(Case(className: "accord.unknown-routes", name: "other routes", outcome: .failed(
                    message: "\(report.otherUnknownRoutes) more requests to routes beyond the \(Observations.routesKept) kept", text: "")))
            }
            suites.append(Suite(name: "unknown-routes", cases: cases, properties: []))
        }
        if let flows = report.flows {
            // One case per endpoint and flow the contract declares or the run met: passed when the
            // client did what the flow asks, skipped when the run never met it.
            suites.append(Suite(name: "flows", cases: flows.cells.map { cell in
                let name = "\(cell.pair.endpoint) \(cell.pair.flow.rawValue)"
                if cell.exercised == 0, cell.violations.isEmpty { return Case(className: "accord.flows", name: name, outcome: .skipped("not met in this run")) }
                guard !cell.violations.isEmpty else { return Case(className: "accord.flows", name: name, outcome: .passed(output: "met \(cell.exercised) times")) }
                return Case(className: "accord.flows", name: name, outcome: .failed(
                    message: "\(cell.violations.count) flow violation\(cell.violations.count == 1 ? "" : "s")",
                    text: cell.violations.map(\.description).joined(separator: "\n")))
            }, properties: [("violations", String(flows.violations))]))
        }
        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        let all = suites.flatMap(\.cases)
        xml += "<testsuites name=\"\(Self.escape(report.title))\" tests=\"\(all.count)\" failures=\"\(all.filter(\.isFailure).count)\" "
            + "errors=\"0\" skipped=\"\(all.filter(\.isSkipped).count)\" time=\"0\">\n"
        for suite in suites { suite.write(into: &xml) }
        xml += "</testsuites>\n"
        return xml
    }

    private func testCase(_ result: ContractReport.EndpointResult) -> Case {
        let endpoint = result.endpoint
        let name = "\(endpoint.id) \(endpoint.method.rawValue) \(endpoint.path.description)"
        let className = "accord.\(endpoint.domain)"
        let tally = result.tally
        if tally.failed > 0 {
            let message = "\(tally.failed) violation\(tally.failed == 1 ? "" : "s") in \(tally.requests) request\(tally.requests == 1 ? "" : "s")"
            return Case(className: className, name: name, outcome: .failed(message: message, text: Self.text(of: tally)))
        }
        if !result.isCovered {
            let message = tally.requests == 0 ? "never called" : "only injected answers"
            return Case(className: className, name: name, outcome: failsUncovered ? .failed(message: "uncovered: \(message)", text: "") : .skipped(message))
        }
        var notes: [String] = []
        if !result.unusedAnswers.isEmpty { notes.append("fixtures never used: \(result.unusedAnswers.joined(separator: ", "))") }
        if !result.missingCodes.isEmpty { notes.append("declared codes never answered: \(result.missingCodes.map(String.init).joined(separator: ", "))") }
        return Case(className: className, name: name, outcome: .passed(output: notes.joined(separator: "\n")))
    }

    /// The failure text: each kept failure as its message and its details as JSON.
    private static func text(of tally: Observations.Tally) -> String {
        var lines = tally.failures.map { failure in
            let origin = failure.origin.map { "\($0): " } ?? ""
            return "\(origin)[\(failure.side.rawValue)] \(failure.kind): \(failure.message)\n  \(JSONWriter.string(failure.details))"
        }
        if tally.omittedFailures > 0 { lines.append("… and \(tally.omittedFailures) more") }
        return lines.joined(separator: "\n")
    }

    /// `text` with `&<>"'` escaped and characters XML 1.0 forbids replaced by U+FFFD.
    static func escape(_ text: String) -> String {
        var escaped = ""
        escaped.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": escaped += "&amp;"
            case "<": escaped += "&lt;"
            case ">": escaped += "&gt;"
            case "\"": escaped += "&quot;"
            case "'": escaped += "&apos;"
            case "\t", "\n", "\r": escaped.unicodeScalars.append(scalar)
            default:
                let value = scalar.value
                let allowed = (0x20...0xD7FF).contains(value) || (0xE000...0xFFFD).contains(value) || value >= 0x10000
                escaped.unicodeScalars.append(allowed ? scalar : "\u{FFFD}")
            }
        }
        return escaped
    }

    private struct Suite {
        var name: String
        var cases: [Case]
        var properties: [(String, String)]

        func write(into xml: inout String) {
            xml += "  <testsuite name=\"\(JUnitWriter.escape(name))\" tests=\"\(cases.count)\" failures=\"\(cases.filter(\.isFailure).count)\" errors=\"0\" "
                + "skipped=\"\(cases.filter(\.isSkipped).count)\" time=\"0\">\n"
            if !properties.isEmpty {
                xml += "    <properties>\n"
                for (name, value) in properties { xml += "      <property name=\"\(JUnitWriter.escape(name))\" value=\"\(JUnitWriter.escape(value))\"/>\n" }
                xml += "    </properties>\n"
            }
            for testCase in cases { testCase.write(into: &xml) }
            xml += "  </testsuite>\n"
        }
    }

    private struct Case {
        enum Outcome {
            case passed(output: String)
            case failed(message: String, text: String)
            case skipped(String)
        }

        var className: String
        var name: String
        var outcome: Outcome

        var isFailure: Bool { if case .failed = outcome { true } else { false } }
        var isSkipped: Bool { if case .skipped = outcome { true } else { false } }

        func write(into xml: inout String) {
            xml += "    <testcase classname=\"\(JUnitWriter.escape(className))\" name=\"\(JUnitWriter.escape(name))\" time=\"0\""
            switch outcome {
            case .passed(let output) where output.isEmpty:
                xml += "/>\n"
            case .passed(let output):
                xml += ">\n      <system-out>\(JUnitWriter.escape(output))</system-out>\n    </testcase>\n"
            case .failed(let message, let text):
                xml += ">\n      <failure message=\"\(JUnitWriter.escape(message))\" type=\"contract\">\(JUnitWriter.escape(text))</failure>\n    </testcase>\n"
            case .skipped(let message):
                xml += ">\n      <skipped message=\"\(JUnitWriter.escape(message))\"/>\n    </testcase>\n"
            }
        }
    }
}
