import AccordCommandLine
import AccordDiagnostics
import AccordGenerator
import AccordJSON
import AccordMock
import AccordMockState
import AccordMocksFormat

/// `accord lint`: every problem in the contracts, compiler-style, non-zero exit on errors.
struct LintCommand: Subcommand {
    let name = "lint"
    let abstract = "Check contracts and print every problem as path:line:col: error: message."
    let options = [
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "mocks", valueName: "DIR", help: "Also check the fixtures in DIR against the contracts (default: mocks, if present)."),
        Arguments.Option(name: "quiet", valueName: nil, help: "Print only the one-line form of each problem, and no summary."),
        Arguments.Option(name: "format", valueName: "text|json", help: "'json' prints one JSON object with every problem and the counts, for tools."),
    ]

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        let outcome: MockProject.Outcome
        let format = arguments["format"] ?? "text"
        do throws(UsageError) {
            guard format == "text" || format == "json" else { throw UsageError("'--format' is 'text' or 'json', found '\(format)'") }
            outcome = MockProject.load(contracts: try arguments.directory("contracts", else: "contracts"), mocks: try arguments.directory("mocks", else: "mocks"))
        } catch {
            console.printError("error: \(error.message)\n\n\(help)")
            return 2
        }
        // What the generated Swift will differ in (renamed enum cases, no automatic refresh,
        // fixtures that cannot be typed), once the contract loads.
        let generator = outcome.project.map { project -> [Diagnostic] in
            let samples = FixtureSamples(contract: project.contract, fixtures: project.fixtures, collections: project.collections)
            let generator = SwiftGenerator(contract: project.contract, samples: samples.byEndpoint)
            return generator.diagnostics() + [generator.namespaceDiagnostic()].compactMap { $0 }
        } ?? []
        let lint = Lint(outcome: outcome, diagnostics: (outcome.diagnostics + generator).sortedByLocation())
        if format == "json" {
            console.print(JSONWriter.string(lint.json))
        } else {
            var renderer = DiagnosticRenderer()
            for diagnostic in lint.diagnostics {
                if arguments.has("quiet") {
                    console.print(diagnostic.description)
                } else {
                    console.write(renderer.render(diagnostic))
                }
            }
            if !arguments.has("quiet") { console.print(lint.summary) }
        }
        return lint.errors > 0 ? 1 : 0
    }
}

/// What lint found, told as text or as JSON.
private struct Lint {
    var outcome: MockProject.Outcome
    var diagnostics: [Diagnostic]

    var errors: Int { diagnostics.count { $0.severity == .error } }
    var warnings: Int { diagnostics.count { $0.severity == .warning } }

    /// What was loaded, in the order the summary line tells it; nil before a contract loads.
    private var counts: [(name: String, count: Int)]? {
        guard let contract = outcome.contract else { return nil }
        var counts = [("endpoints", contract.endpoints.count), ("types", contract.types.values.count { $0.instance == nil }),
                      ("domains", contract.domains.count)]
        if let project = outcome.project {
            counts += [("fixtures", project.fixtures.count), ("scenarios", project.scenarios.count), ("collections", project.collections.count)]
        }
        return counts
    }

    /// `2 errors, 1 warning; 66 endpoints, 63 types in 7 domains, 116 fixtures, …`.
    var summary: String {
        let problems = "\(errors) error\(errors == 1 ? "" : "s"), \(warnings) warning\(warnings == 1 ? "" : "s")"
        guard let counts else { return problems }
        let count = Dictionary(uniqueKeysWithValues: counts)
        var text = "\(problems); \(count["endpoints"]!) endpoints, \(count["types"]!) types in \(count["domains"]!) domains"
        if let fixtures = count["fixtures"], let scenarios = count["scenarios"], let collections = count["collections"] {
            text += ", \(fixtures) fixtures, \(scenarios) scenarios"
            if collections > 0 { text += ", \(collections) collection\(collections == 1 ? "" : "s")" }
        }
        return text
    }

    /// `{"diagnostics": [{file, line, column, severity, message}], "errors", "warnings", "counts"}`.
    var json: JSONValue {
        let items = diagnostics.map { diagnostic in
            JSONValue.object([.init("file", .string(diagnostic.location.file)), .init("line", .int(diagnostic.location.line)),
                              .init("column", .int(diagnostic.location.column)), .init("severity", .string(diagnostic.severity.rawValue)),
                              .init("message", .string(diagnostic.message))])
        }
        var members: [JSONValue.Member] = [.init("diagnostics", .array(items)), .init("errors", .int(errors)), .init("warnings", .int(warnings))]
        if let counts { members.append(.init("counts", .object(counts.map { .init($0.name, .int($0.count)) }))) }
        return .object(members)
    }
}
