/// The runtime every generated package carries: the ordinary Swift files of
/// `Runtime/` (tokens and their storage, errors, the client, signing, decoding
/// support), embedded into the generator at build time by the EmbedFiles plugin.
///
/// They are written with `public` access; a `public` that begins a line (after its
/// indentation) is the access level and becomes the one asked for.
enum Runtime {
    /// The files as `Support/NAME`, at `access` (`"public "` or `""`).
    static func files(access: String) -> [(path: String, source: String)] {
        EmbeddedRuntime.files.map { file in
            ("Support/\(file.name)", withAccess(access, file.source))
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
}
