import Foundation

/// Writes a file whole or not at all (a report, an OpenAPI document, a recorded
/// fixture file): a temporary file beside the target, then a rename.
public enum AtomicFile {
    /// Why the file was not written; the target is left as it was.
    public struct WriteError: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    public static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do {
            try Data(bytes).write(to: temporary)
        } catch {
            throw WriteError(description: "cannot write '\(path)': \(error.localizedDescription)")
        }
        // rename(2) replaces the target in one step; readers see the old file or the new one.
        guard rename(temporary.path, url.path) == 0 else {
            let reason = String(cString: strerror(errno))
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(description: "cannot write '\(path)': \(reason)")
        }
    }
}
