import AccordContract
import AccordDiagnostics
import Foundation

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

    /// The member names `--envelope` gives as `CODE,MSG,DATA`; nil unless they are three different names.
    public static func envelope(list: String) -> Service.Envelope? {
        let names = list.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
        guard names.count == 3, names.allSatisfy({ !$0.isEmpty }), Set(names).count == 3 else { return nil }
        return Service.Envelope(code: names[0], message: names[1], data: names[2])
    }

    public var domains: Domains
    /// The envelope to unwrap answers from; nil reads the document as a plain API (unless it records its own).
    public var envelope: Service.Envelope?

    public init(domains: Domains = .tags, envelope: Service.Envelope? = nil) {
        self.domains = domains
        self.envelope = envelope
    }

    /// Imports the document whose root file is at `path`.
    public func run(path: String) -> Result {
        var importer = Importer(files: SpecFiles(rootPath: path), domains: domains, envelope: envelope)
        return importer.run()
    }

    /// Imports a document held in memory; `path` names it in diagnostics and anchors its relative `$ref`s.
    public func run(document bytes: [UInt8], path: String) -> Result {
        var importer = Importer(files: SpecFiles(rootPath: path, rootBytes: bytes), domains: domains, envelope: envelope)
        return importer.run()
    }
}
