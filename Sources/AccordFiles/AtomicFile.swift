#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a file whole or not at all (a state snapshot, a report, an OpenAPI document,
/// a recorded fixture, a key): a temporary file beside the target, then a rename.
///
/// The temporary file's name is random and it is created exclusively without
/// following links (`O_CREAT | O_EXCL | O_NOFOLLOW`), so a link planted where a
/// predictable name would be cannot make the writer overwrite the link's target; a
/// failed write (a full disk, a file-size limit) removes it again.
public enum AtomicFile {
    /// Why the file was not written; the target is left as it was.
    public struct WriteError: Error, CustomStringConvertible {
        public var description: String

        public init(description: String) {
            self.description = description
        }
    }

    /// Writes `bytes` to `path`, the file readable by others (0644) or by its owner only (`private`, 0600).
    public static func write(_ bytes: [UInt8], to path: String, private: Bool = false) throws(WriteError) {
        let slash = path.utf8.lastIndex(of: UInt8(ascii: "/"))
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.utf8.index(after: $0)...]) } ?? path
        let temporary = "\(directory).\(name).\(String(UInt64.random(in: .min ... .max), radix: 16)).tmp"
        func failure(_ reason: Int32) -> WriteError {
            WriteError(description: "cannot write '\(path)': \(String(cString: strerror(reason)))")
        }
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, `private` ? 0o600 : 0o644)
        guard descriptor >= 0 else { throw failure(errno) }
        let reason = writeFully(bytes, to: descriptor)
        guard reason == 0 else {
            close(descriptor)
            unlink(temporary)
            throw failure(reason)
        }
        guard close(descriptor) == 0 else {
            let reason = errno
            unlink(temporary)
            throw failure(reason)
        }
        // rename(2) replaces the target in one step (a link at the target is replaced, never followed); readers see the old file or the new one.
        guard rename(temporary, path) == 0 else {
            let reason = errno
            unlink(temporary)
            throw failure(reason)
        }
    }
}

/// Writes every byte to `descriptor`; 0, or the error number of the write that failed.
private func writeFully(_ bytes: [UInt8], to descriptor: Int32) -> Int32 {
    bytes.withUnsafeBytes { buffer in
        var written = 0
        while written < buffer.count {
            let count = write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return count < 0 ? errno : ENOSPC }
            written += count
        }
        return 0
    }
}
