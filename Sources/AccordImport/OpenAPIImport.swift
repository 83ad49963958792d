import AccordDiagnostics

/// `accord import openapi`: an OpenAPI 3.0 or 3.1 document (YAML or JSON, one file or many joined
/// by relative `$ref`s) as Accord contracts and fixtures, with one diagnostic for every construct
/// not carried over.
public struct OpenAPIImport: Sendable {
    /// How domains are cut.
    public enum Domains: String, Sendable {
        /// One domain per operation's first tag (untagged operations by their first path segment).
        case tags
        /// One domain per first path segment.
        case paths
    }

    /// One file the import writes, relative to the output directory (`contracts/pets.yaml`).
    public struct File: Sendable, Equatable {
        public var path: String
        public var text: String
    }

    /// What an import made of a document.
    public struct Result: Sendable {
        /// The contracts and fixtures, empty when the document could not be read.
        public var files: [File]
        /// Every problem and every construct not carried over, in document order.
        public var diagnostics: [Diagnostic]
        public var summary: Summary
    }

    /// The counts the import ends with.
    public struct Summary: Sendable, Equatable, CustomStringConvertible {
        public var operationsImported = 0
        public var operationsSkipped = 0
        /// Schemas declared as typed contract types.
        public var schemasTyped = 0
        /// Schemas that could only be imported as `any` (free-form JSON).
        public var schemasFreeForm = 0
        public var examplesKept = 0
        public var examplesRefused = 0

        /// The share of schemas imported as types, 0…1 (1 when there are none).
        public var typedShare: Double {
            let total = schemasTyped + schemasFreeForm
            return total == 0 ? 1 : Double(schemasTyped) / Double(total)
        }

        public var description: String {
            "\(operationsImported) operations imported, \(operationsSkipped) skipped; \(schemasTyped) schemas typed, \(schemasFreeForm) free-form; "
                + "\(examplesKept) examples kept, \(examplesRefused) refused"
        }
    }

    public var domains: Domains

    public init(domains: Domains = .tags) {
        self.domains = domains
    }

    /// Imports the document whose root file is at `path`.
    public func run(path: String) -> Result {
        var importer = Importer(rootPath: path, domains: domains)
        return importer.run()
    }
}
