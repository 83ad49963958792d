import AccordContract
import AccordDiagnostics
import AccordYAML
import Foundation

/// The mock files that hold one thing each, named by the file (`scenarios/NAME.yaml`,
/// `collections/NAME.yaml`): every YAML file of a directory parsed, and its root read by
/// `read`, with the problems of all of them in position order. A missing directory has none.
package enum NamedDocuments {
    package static func load<Value>(directory: String, read: (_ name: String, _ root: Node, _ reader: inout NodeReader) -> Value?)
        -> ([String: Value], [Diagnostic]) {
        guard let (sources, unreadable) = ContractLoader.Source.yamlFiles(in: directory) else { return ([:], []) }
        var values: [String: Value] = [:]
        var diagnostics = unreadable
        for source in sources {
            let document = YAMLParser.parse(source.bytes, file: source.path)
            diagnostics += document.diagnostics
            guard let root = document.root else { continue }
            var reader = NodeReader(document: document)
            let name = ((source.path as NSString).lastPathComponent as NSString).deletingPathExtension
            if let value = read(name, root, &reader) { values[name] = value }
            diagnostics += reader.diagnostics
        }
        return (values, diagnostics.sortedByLocation())
    }
}
