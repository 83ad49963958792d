import AccordCommandLine
import Foundation

/// `accord init [DIR] [--style plain|envelope]`: a small working project to start from.
struct InitCommand: Subcommand {
    let name = "init"
    let abstract = "Write a small working project (contracts/ and mocks/) to start from."
    let positionals: String? = "[DIR]"
    let options = [
        Arguments.Option(name: "style", valueName: "STYLE",
                         help: "'plain' (bare JSON, problem+json errors, an API key) or 'envelope' ({code, msg, data}, signed, bearer tokens); default: plain."),
    ]

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        guard arguments.positionals.count <= 1 else {
            console.printError("error: 'accord init' takes one directory, found \(arguments.positionals.count)\n\n\(help)")
            return 2
        }
        let styleName = arguments["style"] ?? StarterProject.Style.plain.rawValue
        guard let style = StarterProject.Style(rawValue: styleName) else {
            let names = StarterProject.Style.allCases.map(\.rawValue)
            console.printError("error: '--style' is \(names.map { "'\($0)'" }.joined(separator: " or ")), found '\(styleName)'"
                               + (NameHint.hint(for: styleName, in: names).map { "; did you mean '\($0)'?" } ?? ""))
            return 2
        }
        let directory = arguments.positionals.first ?? "."
        let files = StarterProject(style: style).files
        let project = ProjectFiles(files: files.map { ($0.path, $0.contents) })
        let taken = project.taken(in: directory)
        guard taken.isEmpty else {
            console.printError("error: accord init writes nothing over existing files; already there: \(taken.joined(separator: ", "))")
            return 1
        }
        if let failure = project.write(into: directory) {
            console.printError("error: \(failure)")
            return 1
        }
        let prefix = directory == "." ? "" : "cd \(directory) && "
        console.print("""
            accord init: the \(style.rawValue) starter in \(directory == "." ? "this directory" : directory): \(files.map(\.path).joined(separator: ", "))
            next: \(prefix)accord lint, then accord serve, then accord generate --output Sources/API
            """)
        return 0
    }
}
