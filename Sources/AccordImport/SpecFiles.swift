import AccordDiagnostics
import AccordJSON
import AccordYAML
import Foundation

/// The files of one OpenAPI document: the root and each file its relative `$ref`s reach,
/// read once each, with the limits that keep a hostile document from exhausting the machine.
struct SpecFiles {
    /// The largest file read (a larger one is refused with its size).
    static let maxFileBytes = 32 << 20
    /// The most files one document may join.
    static let maxFiles = 1_000

    /// The root file's path as the user gave it.
    let rootPath: String
    private var parsed: [String: Spot] = [:]
    /// Why each file that could not be read was refused, by normalized path.
    private var refusals: [String: Diagnostic] = [:]

    /// The root file's bytes when the caller holds them (the rest is read from disk, relative to `rootPath`).
    private let rootBytes: [UInt8]?

    init(rootPath: String, rootBytes: [UInt8]? = nil) {
        self.rootPath = rootPath
        self.rootBytes = rootBytes
    }

    /// The root of the document, or nil when it could not be read (the reason is `refusal(for: rootPath)`).
    mutating func root() -> Spot? {
        file(rootPath, referencedAt: nil)
    }

    /// The root node of the file at `path` (relative to the working directory).
    mutating func file(_ path: String, referencedAt reference: SourceLocation?) -> Spot? {
        let key = Self.normalized(path)
        if let spot = parsed[key] { return spot }
        if refusals[key] != nil { return nil }
        let at = reference ?? SourceLocation(file: path, line: 1, column: 1)
        guard parsed.count < Self.maxFiles else {
            return refuse(key, .error("[too-many-files] the document joins more than \(Self.maxFiles) files; '\(path)' is not read", at: at))
        }
        let read = key == Self.normalized(rootPath) ? rootBytes ?? Self.read(path) : Self.read(path)
        guard let bytes = read else {
            return refuse(key, .error("[file-unreadable] cannot read '\(path)'", at: at))
        }
        guard bytes.count <= Self.maxFileBytes else {
            return refuse(key, .error("[file-too-large] '\(path)' is larger than \(Self.maxFileBytes >> 20) MiB, the most the importer reads", at: at))
        }
        if Self.looksLikeJSON(path: path, bytes: bytes) {
            do { _ = try JSONReader.read(bytes) } catch {
                return refuse(key, .error("[not-json] \(error.message)", at: SourceLocation(file: path, line: error.line, column: error.column)))
            }
        }
        let document = YAMLParser.parse(bytes, file: path)
        if let failure = document.diagnostics.first(where: { $0.severity == .error }) {
            return refuse(key, Diagnostic(.error, at: failure.location, "[not-yaml] " + failure.message))
        }
        guard let node = document.root else {
            return refuse(key, .error("[empty-file] '\(path)' holds no document", at: at))
        }
        let spot = Spot(file: path, pointer: "", node: node)
        parsed[key] = spot
        return spot
    }

    /// The file's bytes, one more than the limit at most (enough to tell it is too large); nil when it cannot be read.
    private static func read(_ path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let data = try? handle.read(upToCount: maxFileBytes + 1) else { return nil }
        return [UInt8](data)
    }

    private mutating func refuse(_ key: String, _ diagnostic: Diagnostic) -> Spot? {
        refusals[key] = diagnostic
        return nil
    }

    /// Why the file at `path` could not be read, once `file(_:referencedAt:)` gave nil for it.
    func refusal(for path: String) -> Diagnostic? {
        refusals[Self.normalized(path)]
    }

    /// A `.json` file, or any file whose first visible byte opens an object, is held to strict JSON first,
    /// so a JSON document gets JSON's error messages rather than YAML's.
    private static func looksLikeJSON(path: String, bytes: [UInt8]) -> Bool {
        if path.hasSuffix(".json") { return true }
        let first = bytes.first { ![UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t")].contains($0) }
        return first == UInt8(ascii: "{")
    }

    /// `a/./b/../c.yaml` as `a/c.yaml`, so one file reached two ways is read once.
    static func normalized(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            if part == "." { continue }
            if part == "..", let last = parts.last, last != ".." { parts.removeLast() } else { parts.append(part) }
        }
        return (path.hasPrefix("/") ? "/" : "") + parts.joined(separator: "/")
    }
}
