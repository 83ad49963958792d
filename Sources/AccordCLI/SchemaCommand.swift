import AccordCommandLine
import AccordContract
import AccordFiles
import AccordJSON
import AccordMocksFormat
import Foundation

/// `accord schema contracts|mocks`: the JSON Schema of a file format, made from the
/// loaders' own key tables, for editors (`# yaml-language-server: $schema=…`) and
/// `check-jsonschema`. The repository keeps both under `schemas/`.
struct SchemaCommand: Subcommand {
    let name = "schema"
    let abstract = "Print the JSON Schema of contract files or mocks files, for editors and check-jsonschema."
    let positionals: String? = "contracts|mocks"
    let options = [
        Arguments.Option(name: "output", valueName: "FILE", help: "Write it to FILE instead of printing it."),
        Arguments.Option(name: "check", valueName: nil, help: "With --output: exit 1 if FILE differs from what would be written."),
    ]

    func run(_ arguments: Arguments, console: Console) -> Int32 {
        let document: JSONSchemaDocument
        switch arguments.positionals {
        case ["contracts"]: document = ContractKeys.schema
        case ["mocks"]: document = MocksKeys.schema
        default:
            console.printError("error: 'accord schema' takes 'contracts' or 'mocks'\n\n\(help)")
            return 2
        }
        let text = Self.text(of: document)
        guard let path = arguments["output"] else {
            console.write(text)
            return 0
        }
        if arguments.has("check") {
            let current = FileManager.default.contents(atPath: path).map { String(decoding: $0, as: UTF8.self) }
            guard current == text else {
                console.printError("error: \(path) is not the schema this accord writes; run 'accord schema \(arguments.positionals[0]) --output \(path)'")
                return 1
            }
            return 0
        }
        do {
            try AtomicFile.write(Array(text.utf8), to: path)
        } catch {
            console.printError("error: cannot write \(path): \(error)")
            return 2
        }
        return 0
    }

    /// The document as committed: indented, keys sorted, one newline at the end.
    static func text(of document: JSONSchemaDocument) -> String {
        let compact = Data(JSONWriter.bytes(document.json))
        guard let object = try? JSONSerialization.jsonObject(with: compact),
              let pretty = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]) else {
            return String(decoding: compact, as: UTF8.self) + "\n"
        }
        return String(decoding: pretty, as: UTF8.self) + "\n"
    }
}
