import AccordDiagnostics
import AccordFiles
import AccordJSON
import Foundation

/// `$ref`s resolved across the document's files: `#/components/schemas/Pet`, `pet.yaml`,
/// `../common/errors.yaml#/Error`. Remote references (`https://…`) are not followed.
struct References {
    var files: SpecFiles

    /// What a reference names, or why it names nothing.
    enum Outcome {
        case found(Spot)
        case broken(Diagnostic)
    }

    /// The target of `spot`'s `$ref`, or `spot` itself when it has none; chains of references are followed
    /// up to 64 deep (a longer chain is a cycle).
    mutating func resolve(_ spot: Spot) -> Outcome {
        var current = spot
        for _ in 0..<64 {
            guard let reference = current["$ref"] else { return .found(current) }
            switch target(of: reference) {
            case .found(let next): current = next
            case .broken(let diagnostic): return .broken(diagnostic)
            }
        }
        return .broken(.error("[ref-cycle] '$ref' chain at \(spot.reference) never reaches a value", at: spot.location))
    }

    /// The canonical name of the node a `$ref` at `reference` names: its normalized file and pointer.
    func key(of reference: Spot) -> String? {
        guard let text = reference.string else { return nil }
        let (file, pointer) = split(text, in: reference.file)
        return SpecFiles.normalized(file) + "#" + pointer
    }

    private mutating func target(of reference: Spot) -> Outcome {
        guard let text = reference.string else {
            return .broken(.error("[ref-invalid] '$ref' is a text such as '#/components/schemas/Pet'", at: reference.location))
        }
        if text.contains("://") {
            return .broken(.error("[ref-remote] remote reference '\(text)' is not followed; download it beside the document and refer to it by a relative path",
                                  at: reference.location))
        }
        let (file, pointer) = split(text, in: reference.file)
        guard let root = files.file(file, referencedAt: reference.location) else {
            return .broken(files.refusal(for: file) ?? .error("[ref-broken] '\(text)' names a file that cannot be read: '\(file)'", at: reference.location))
        }
        guard let tokens = Self.tokens(of: pointer) else {
            return .broken(.error("[ref-invalid] '\(text)' has a fragment that is not a JSON pointer", at: reference.location))
        }
        var spot = root
        for token in tokens {
            if let next = spot[token] {
                spot = next
            } else if let index = Int(token), index >= 0, index < spot.items.count {
                spot = spot.items[index]
            } else {
                return .broken(.error("[ref-broken] '\(text)' names nothing: '\(token)' is missing at \(spot.reference)", at: reference.location))
            }
        }
        return .found(spot)
    }

    /// The file (relative to the working directory) and the pointer of a reference written in `base`.
    private func split(_ text: String, in base: String) -> (file: String, pointer: String) {
        let hash = text.firstIndex(of: "#") ?? text.endIndex
        let path = String(text[..<hash])
        let fragment = hash < text.endIndex ? String(text[text.index(after: hash)...]) : ""
        let pointer = fragment.removingPercentEncoding ?? fragment
        guard !path.isEmpty else { return (base, pointer) }
        if path.hasPrefix("/") { return (path, pointer) }
        let directory = ParentDirectory.of(base)
        return (directory.isEmpty ? path : directory + "/" + path, pointer)
    }

    /// The reference tokens of a JSON pointer, unescaped (`~1` is `/`, `~0` is `~`).
    static func tokens(of pointer: String) -> [String]? {
        if pointer.isEmpty { return [] }
        guard pointer.hasPrefix("/") else { return nil }
        return pointer.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }
}
