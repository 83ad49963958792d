import AccordCommandLine
import AccordFiles
import AccordMock
import AccordOpenAPI

/// `accord openapi`: the contracts as an OpenAPI 3.1 document.
struct OpenAPICommand: Subcommand {
    let name = "openapi"
    let abstract = "Write the contracts as an OpenAPI 3.1 document (YAML or JSON)."
    let options = [
        Arguments.Option(name: "contracts", valueName: "DIR", help: "The contracts directory (default: contracts)."),
        Arguments.Option(name: "output", valueName: "FILE", help: "Write to FILE instead of standard output."),
        Arguments.Option(name: "format", valueName: "FORMAT", help: "'yaml' or 'json' (default: from the output's extension, else yaml)."),
    ]

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        let output = arguments["output"]
        let formatName = arguments["format"] ?? (output?.lowercased().hasSuffix(".json") == true ? "json" : "yaml")
        guard let format = OpenAPIDocument.Format(rawValue: formatName) else {
            console.printError("error: '--format' is 'yaml' or 'json', found '\(formatName)'\n\n\(help)")
            return 2
        }
        guard let contract = loadContract(arguments, console: console) else { return 1 }
        let text: String
        do {
            text = try OpenAPIDocument(contract: contract).rendered(as: format)
        } catch {
            console.printError("error: \(error)")
            return 1
        }
        guard let output else {
            console.write(text)
            return 0
        }
        do {
            try AtomicFile.write(Array(text.utf8), to: output)
        } catch {
            console.printError("error: \(error)")
            return 1
        }
        console.printError("accord openapi: \(contract.endpoints.count) operations, \(contract.types.values.filter { !$0.isGeneric }.count) schemas written to \(output)")
        return 0
    }
}
