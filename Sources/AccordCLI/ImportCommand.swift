import AccordCommandLine
import AccordContract
import AccordDiagnostics
import AccordImport

/// `accord import openapi SPEC [--output DIR] [--domains tags|paths] [--envelope CODE,MSG,DATA] [--strict] [--force]`: contracts and fixtures from an OpenAPI document.
struct ImportCommand: Subcommand {
    let name = "import"
    let abstract = "Write contracts/ and mocks/ from an OpenAPI 3.0 or 3.1 document (YAML or JSON)."
    let positionals: String? = "openapi SPEC"
    let options = [
        Arguments.Option(name: "output", valueName: "DIR", help: "Where contracts/ and mocks/ go (default: the current directory)."),
        Arguments.Option(name: "domains", valueName: "RULE", help: "'tags' (one domain per operation's first tag) or 'paths' (per first path segment); default: tags."),
        Arguments.Option(name: "envelope", valueName: "CODE,MSG,DATA",
                         help: "Every answer is an envelope with these members (code 0 is success): its data is the response type."),
        Arguments.Option(name: "strict", help: "Exit 1 when anything was not carried over (any warning)."),
        Arguments.Option(name: "force", help: "Write over contracts and fixtures already in DIR."),
    ]

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        guard arguments.positionals.count == 2, arguments.positionals[0] == "openapi" else {
            console.printError("error: 'accord import' takes 'openapi' and the document's path, as in 'accord import openapi openapi.yaml'\n\n\(help)")
            return 2
        }
        let ruleName = arguments["domains"] ?? OpenAPIImport.Domains.tags.rawValue
        guard let rule = OpenAPIImport.Domains(rawValue: ruleName) else {
            console.printError("error: '--domains' is 'tags' or 'paths', found '\(ruleName)'")
            return 2
        }
        var envelope: Service.Envelope?
        if let list = arguments["envelope"] {
            guard let names = OpenAPIImport.envelope(list: list) else {
                console.printError("error: '--envelope' is three different member names, as in 'code,msg,data'; found '\(list)'")
                return 2
            }
            envelope = names
        }
        let spec = arguments.positionals[1]
        let result = OpenAPIImport(domains: rule, envelope: envelope).run(path: spec)
        var renderer = DiagnosticRenderer()
        for diagnostic in result.diagnostics { console.writeError(renderer.render(diagnostic)) }
        guard !result.files.isEmpty || !result.diagnostics.containsErrors else {
            console.printError("accord import: \(spec) was not imported")
            return 1
        }
        let directory = arguments["output"] ?? "."
        let project = ProjectFiles(files: result.files.map { ($0.path, $0.text) }, folders: result.files.isEmpty ? [] : ["mocks"])
        let taken = project.taken(in: directory)
        guard taken.isEmpty || arguments.has("force") else {
            console.printError("error: accord import writes nothing over existing files without --force; already there: \(taken.joined(separator: ", "))")
            return 1
        }
        if let failure = project.write(into: directory) {
            console.printError("error: \(failure)")
            return 1
        }
        let warnings = result.diagnostics.count { $0.severity == .warning }
        if result.files.isEmpty {
            console.printError("accord import: the document has no operations to import")
        } else {
            console.printError("accord import: \(result.summary); \(warnings) warnings; \(result.files.count) files written to \(directory)")
        }
        if result.diagnostics.containsErrors { return 1 }
        return arguments.has("strict") && warnings > 0 ? 1 : 0
    }
}
