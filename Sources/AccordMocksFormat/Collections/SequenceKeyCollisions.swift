import AccordDiagnostics
import AccordJSON

/// The lint warning for an insert whose key is made with `{{seq}}` and can come out as
/// the key of a seed record: `{{seq}}` counts across the whole server (1, 2, 3, …), and
/// an insert replaces the record with the same key, so `id: 'cm_{{seq}}'` would one day
/// answer `cm_2` and silently overwrite the seeded `cm_2`.
package enum SequenceKeyCollisions {
    package static func warnings(fixtures: FixtureSet, collections: [String: CollectionDefinition]) -> [Diagnostic] {
        var warnings: [Diagnostic] = []
        for fixture in fixtures.byEndpoint.keys.sorted().flatMap(fixtures.fixtures(for:)) {
            for effect in fixture.effects where effect.action == .insert {
                guard let name = effect.collection, let collection = collections[name],
                      let template = effect.record.flatMap({ keyTemplate(in: $0, key: collection.key) }),
                      let pattern = SequencePattern(template) else { continue }
                guard let seed = collection.seedKeys.first(where: pattern.matches) else { continue }
                let shown = if case .string(let text) = seed { "'\(text)'" } else { "\(seed)" }
                warnings.append(.warning(
                    "the insert into '\(name)' of fixture '\(fixture.name)' keys records '\(pattern)', which becomes \(shown), the key of a seed in \(collection.location.file)"
                        + "; {{seq}} counts across the server and an insert replaces the record with its key:"
                        + " use a prefix no seed has (such as '\(pattern.prefix)n{{seq}}') or {{uuid}}",
                    at: effect.location))
            }
        }
        return warnings
    }

    /// The template the record gives its key member, if it gives one.
    private static func keyTemplate(in record: TemplatedJSON, key: String) -> TemplatedJSON? {
        guard case .object(let members) = record else { return nil }
        return members.first { $0.key == key }?.value
    }
}

/// A key template with one `{{seq}}` between fixed text: what its renderings look like.
private struct SequencePattern: CustomStringConvertible {
    var prefix: String
    var suffix: String
    /// `{{seq}}` alone renders as a number, not a string.
    var isNumber: Bool

    init?(_ template: TemplatedJSON) {
        switch template {
        case .expression(.sequence):
            (prefix, suffix, isNumber) = ("", "", true)
        case .text(let parts):
            var texts: [String] = [""]
            for part in parts {
                switch part {
                case .text(let text): texts[texts.count - 1] += text
                case .expression(.sequence): texts.append("")
                case .expression: return nil
                }
            }
            guard texts.count == 2 else { return nil }
            (prefix, suffix, isNumber) = (texts[0], texts[1], false)
        default:
            return nil
        }
    }

    /// Whether `key` is one of the renderings: the fixed text around a positive decimal
    /// number written without leading zeros.
    func matches(_ key: JSONValue) -> Bool {
        switch key {
        case .int(let number): return isNumber && number >= 1
        case .string(let text) where !isNumber:
            guard text.hasPrefix(prefix), text.hasSuffix(suffix), text.count > prefix.count + suffix.count else { return false }
            let digits = text.dropFirst(prefix.count).dropLast(suffix.count)
            return digits.first != "0" && digits.allSatisfy { $0.isASCII && $0.isNumber }
        default: return false
        }
    }

    var description: String { isNumber ? "{{seq}}" : "\(prefix){{seq}}\(suffix)" }
}
