import AccordCommandLine
import AccordContract
import AccordFiles
import AccordMock
import AccordReport
import AccordVerification
import Foundation

/// `accord verify --base-url URL`: a real backend held to the contracts.
struct VerifyCommand: Subcommand {
    let name = "verify"
    let abstract = "Check a real backend against the contracts: every example, then signature, nonce and token checks."
    let options = [
        Arguments.Option(name: "base-url", valueName: "URL", help: "The backend's base URL, such as https://staging.example.com/api/v1."),
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "only", valueName: "PATTERN", help: "Check only these endpoints ('signal.*', 'user.me'); repeatable."),
        Arguments.Option(name: "skip", valueName: "PATTERN", help: "Leave these endpoints out; repeatable."),
        Arguments.Option(name: "concurrency", valueName: "N", help: "Requests in flight at once, 1 to 64 (default: 4)."),
        Arguments.Option(name: "timeout", valueName: "DURATION", help: "The deadline of each request, such as 10s or 500ms (default: 10s)."),
        Arguments.Option(name: "retries", valueName: "N", help: "Sends again after a connection error, 0 to 5 (default: 2)."),
        Arguments.Option(name: "allow-writes", valueName: nil, help: "Also call endpoints that write (POST, PUT, PATCH, DELETE)."),
        Arguments.Option(name: "header", valueName: "NAME:VALUE", help: "A service header's value, when the contract has no default; repeatable."),
        Arguments.Option(name: "app-key", valueName: "KEY:SECRET", help: "Sign with this app key (default: the contract's first)."),
        Arguments.Option(name: "ca-file", valueName: "FILE", help: "Trust the CAs in FILE (PEM) instead of the system's."),
        Arguments.Option(name: "quiet", valueName: nil, help: "Print failures and the summary only."),
    ] + ReportOptions.options

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        let settings: Verifier.Settings
        let report: ReportOptions
        do throws(UsageError) {
            settings = try Self.settings(arguments)
            report = try ReportOptions(arguments)
        } catch {
            console.printError("error: \(error.message)\n\n\(help)")
            return 2
        }
        guard let contract = loadContract(arguments, console: console) else { return 2 }
        let verifier: Verifier
        do {
            verifier = try Verifier(contract: contract, settings: settings)
        } catch {
            console.printError("error: \(error)")
            return 2
        }
        let quiet = arguments.has("quiet")
        let checks: [VerificationCheck]
        do {
            checks = try verifier.run { check in
                if case .passed = check.outcome, quiet { return }
                if case .skipped = check.outcome, quiet { return }
                for line in check.lines { console.print(line) }
            }
        } catch {
            console.printError("error: \(error)")
            return 2
        }
        let skippedWrites = checks.filter { if case .skipped(let reason) = $0.outcome { reason.hasPrefix("writes") } else { false } }
        if !skippedWrites.isEmpty {
            // In the contract's order: the checks end in whatever order the threads take them.
            let skipped = Set(skippedWrites.map(\.endpoint))
            console.print("skipped \(skippedWrites.count) check\(skippedWrites.count == 1 ? "" : "s") that write; --allow-writes runs them: "
                          + contract.endpoints.map(\.id).filter(skipped.contains).joined(separator: ", "))
        }
        let failed = checks.filter { if case .failed = $0.outcome { true } else { false } }.count
        let passed = checks.filter { $0.outcome == .passed }.count
        console.print("accord verify: \(passed) passed, \(failed) failed, \(checks.count - passed - failed) skipped against \(settings.baseURL)")
        if let path = report.path {
            let observed = Verifier.observations(of: checks, contract: contract).snapshot
            let document = ContractReport(title: "accord verify", contract: contract, answers: [:], observed: observed)
            do {
                try AtomicFile.write(document.rendered(as: report.format, failsUncovered: false), to: path)
            } catch {
                console.printError("error: \(error)")
                return 2
            }
        }
        return failed > 0 ? 1 : 0
    }

    private static func settings(_ arguments: Arguments) throws(UsageError) -> Verifier.Settings {
        guard let base = arguments["base-url"] else { throw UsageError("give --base-url URL") }
        guard base.hasPrefix("http://") || base.hasPrefix("https://") else {
            throw UsageError("'--base-url' takes an http:// or https:// URL, found '\(base)'")
        }
        var settings = Verifier.Settings(baseURL: base)
        settings.only = arguments.all("only")
        settings.skip = arguments.all("skip")
        settings.allowsWrites = arguments.has("allow-writes")
        settings.concurrency = try arguments.integer("concurrency", in: 1...64) ?? settings.concurrency
        settings.retries = try arguments.integer("retries", in: 0...5) ?? settings.retries
        if let text = arguments["timeout"] {
            guard let milliseconds = Self.milliseconds(text), (1...600_000).contains(milliseconds) else {
                throw UsageError("'--timeout' takes a duration from 1ms to 10m such as 10s or 500ms, found '\(text)'")
            }
            settings.client.timeoutMilliseconds = milliseconds
        }
        for (name, value) in try arguments.colonPairs("header") { settings.headers[name] = value }
        if let app = try arguments.colonPairs("app-key", form: "KEY:SECRET").last { (settings.appKey, settings.appSecret) = (app.name, app.value) }
        settings.client.caFile = arguments["ca-file"]
        return settings
    }

    /// `500ms`, `10s`, `2m`, or milliseconds.
    private static func milliseconds(_ text: String) -> Int? {
        if text.hasSuffix("ms") { return Int(text.dropLast(2)) }
        if let seconds = DurationText.seconds(text) { return seconds <= 600 ? seconds * 1_000 : nil }
        return Int(text)
    }
}
