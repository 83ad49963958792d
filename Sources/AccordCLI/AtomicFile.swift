import Foundation

/// Writes a file whole or not at all (a report, an OpenAPI document): a temporary file
/// beside the target, then a rename.
enum AtomicFile {
    struct WriteError: Error, CustomStringConvertible {
        var description: String
    }

    static func write(_ bytes: [UInt8], to path: String) throws(WriteError) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        do {
            try Data(bytes).write(to: temporary)
            if FileManager.default.fileExists(atPath: url.path) {
                _ = try FileManager.default.replaceItemAt(url, withItemAt: temporary)
            } else {
                try FileManager.default.moveItem(at: temporary, to: url)
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw WriteError(description: "cannot write the report to '\(path)': \(error.localizedDescription)")
        }
    }
}
