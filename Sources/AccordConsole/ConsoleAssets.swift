/// The web console's files, served at `/__accord/ui`: one page, its stylesheet and its
/// script, plain HTML, CSS and JavaScript embedded in the binary (no build step).
public enum ConsoleAssets {
    /// One file and the media type it is served with.
    public struct Asset: Sendable {
        public let bytes: [UInt8]
        public let contentType: String
    }

    /// The page itself.
    public static let pageName = "console.html"

    /// The file called `name` (`console.js`), or nil.
    public static func asset(named name: String) -> Asset? {
        assets[name]
    }

    private static let assets: [String: Asset] = Dictionary(uniqueKeysWithValues: EmbeddedAssets.files.map { file in
        (file.name, Asset(bytes: Array(file.source.utf8), contentType: contentType(of: file.name)))
    })

    private static func contentType(of name: String) -> String {
        if name.hasSuffix(".html") { return "text/html; charset=utf-8" }
        if name.hasSuffix(".css") { return "text/css; charset=utf-8" }
        return "text/javascript; charset=utf-8"
    }
}
