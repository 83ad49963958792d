/// The runtime every generated package carries: the ordinary Swift files of the
/// AccordClientRuntime target (tokens and their storage, errors, the client, signing,
/// decoding support, generic over `AccordContractService`), one type to a file named `Accord`
/// and the type (an app's target may hold a file named like the type), embedded into
/// the generator at build time by the EmbedFiles plugin.
///
/// They are written with `public` access; a `public` that begins a line (after its
/// indentation) is the access level and becomes the one asked for. A feature the
/// contract does not use is left out: its files (``Feature/files``) and the lines
/// between `// accord:if FEATURE` and `// accord:else` (or `// accord:end`); the lines
/// after `// accord:else` are kept instead.
///
/// Every top-level type, extension and function is `nonisolated`, so an app target's
/// default isolation (`MainActor`) does not reach it; the exceptions are the actors, the
/// protocols actors adopt (`AccordAPISending`, `Transport`, `TokenStorage`) and extensions of
/// actors, where Swift 6.3.1 refuses or mis-infers `nonisolated`. An actor's static
/// members are `nonisolated` one by one. `LanguageModeTests` builds every setting.
enum Runtime {
    /// A part of the runtime that only some contracts need.
    enum Feature: String, CaseIterable {
        /// `X-Sign` and its headers.
        case signing

        /// The runtime's files only this feature needs.
        var files: Set<String> {
            switch self {
            case .signing: ["AccordRequestSigner.swift", "AccordPortableMD5.swift"]
            }
        }
    }

    /// The files as `Support/NAME`, at `access` (`"public "` or `""`), with `features`.
    static func files(access: String, features: Set<Feature>) -> [(path: String, source: String)] {
        EmbeddedRuntime.files.compactMap { file in
            if Feature.allCases.contains(where: { !features.contains($0) && $0.files.contains(file.name) }) { return nil }
            return ("Support/\(file.name)", withAccess(access, with(features, file.source)))
        }
    }

    private static func withAccess(_ access: String, _ source: String) -> String {
        guard access != "public " else { return source }
        return source.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            let indentation = line.prefix { $0 == " " }
            let rest = line.dropFirst(indentation.count)
            return rest.hasPrefix("public ") ? indentation + access + rest.dropFirst("public ".count) : line
        }.joined(separator: "\n")
    }

    /// `source` with each feature region kept or left out, and the marker lines gone.
    static func with(_ features: Set<Feature>, _ source: String) -> String {
        var kept: [Substring] = []
        // The region being read: whether its lines are kept, nil outside one.
        var keeping: Bool?
        var feature: Feature?
        for line in source.split(separator: "\n", omittingEmptySubsequences: false) {
            let marker = line.drop { $0 == " " }
            if marker.hasPrefix("// accord:if "), let named = Feature(rawValue: String(marker.dropFirst("// accord:if ".count))) {
                (feature, keeping) = (named, features.contains(named))
            } else if marker == "// accord:else", let feature {
                keeping = !features.contains(feature)
            } else if marker == "// accord:end", feature != nil {
                (feature, keeping) = (nil, nil)
            } else if keeping ?? true {
                kept.append(line)
            }
        }
        return kept.joined(separator: "\n")
    }
}
