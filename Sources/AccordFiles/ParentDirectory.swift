/// Path arithmetic on text, where Foundation's `NSString.deletingLastPathComponent`
/// traps: on Linux (swift-corelibs-foundation, Swift 6.3) a path of one character, such
/// as `accord generate --contracts c`, stops the process with an illegal instruction.
public enum ParentDirectory {
    /// The directory part of `path`, as `NSString.deletingLastPathComponent` gives it:
    /// trailing slashes are not a component (`a/b/` → `a`), the root is its own parent
    /// (`/`, `/c` → `/`), and a name without a slash has the empty parent (`c` → ``).
    public static func of(_ path: String) -> String {
        var bytes = Array(path.utf8)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        guard let slash = bytes.lastIndex(of: UInt8(ascii: "/")) else { return "" }
        bytes.removeSubrange(slash...)
        while bytes.count > 1, bytes.last == UInt8(ascii: "/") { bytes.removeLast() }
        return bytes.isEmpty ? "/" : String(decoding: bytes, as: UTF8.self)
    }
}
