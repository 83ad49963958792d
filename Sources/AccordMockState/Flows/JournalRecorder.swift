import AccordContract
import AccordJSON
import AccordSync
import Foundation

/// The JSONL file `--record` appends the journal to: one whole line per request, or
/// none.
///
/// Lines are written one at a time under a lock. A write that fails part-way (a full
/// disk, a file-size limit) is cut back to the end of the last whole line, so a
/// reader never meets a torn line; the line is counted as lost, the first failure is
/// reported through `report`, and ``status`` says how many lines were written and lost
/// and why. Writing goes on with the next request, so recording resumes when space
/// comes back.
public final class JournalRecorder: Sendable {
    /// What was written and lost so far, for `GET /__accord/requests`.
    public struct Status: Sendable, Equatable {
        public var path: String
        public var written: Int
        public var lost: Int
        /// Why the latest write failed; nil once writing works again (``lost`` keeps the count).
        public var lastError: String?

        public var json: JSONValue {
            var members: [JSONValue.Member] = [.init("file", .string(path)), .init("written", .int(written)), .init("lost", .int(lost))]
            if let lastError { members.append(.init("error", .string(lastError))) }
            return .object(members)
        }
    }

    /// Why the file cannot be opened.
    public struct OpenError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    private struct State {
        var status: Status
        /// The file's length after the last whole line.
        var size: Int64
    }

    private let descriptor: Int32
    private let state: Locked<State>
    private let report: @Sendable (String) -> Void

    /// Opens `path` for appending, creating it when missing.
    /// - Parameter report: told once, at the first failed write.
    public init(path: String, report: @escaping @Sendable (String) -> Void) throws(OpenError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC | O_NOFOLLOW, 0o644)
        guard descriptor >= 0 else { throw OpenError(description: "cannot write to '\(path)': \(String(cString: strerror(errno)))") }
        self.descriptor = descriptor
        state = Locked(State(status: Status(path: path, written: 0, lost: 0), size: Int64(lseek(descriptor, 0, SEEK_END))))
        self.report = report
    }

    deinit {
        close(descriptor)
    }

    /// Appends `line` (with its newline) whole, or not at all.
    public func append(_ line: [UInt8]) {
        let failure: String? = state.withLock { state in
            let error: String? = line.withUnsafeBytes { Self.writeAll(descriptor, $0) }
            guard let error else {
                state.size += Int64(line.count)
                state.status.written += 1
                // Recording resumed: the error is history (counted in `lost`), and the next failure is reported again.
                state.status.lastError = nil
                return nil
            }
            // Cut a partly written line back off; O_APPEND writes land at the end, which is `size` again.
            let restored = ftruncate(descriptor, off_t(state.size)) == 0
            let message = "writing to \(state.status.path) failed: \(error)\(restored ? "" : "; the last line may be torn")"
            let first = state.status.lastError == nil
            state.status.lost += 1
            state.status.lastError = message
            return first ? message : nil
        }
        if let failure { report("accord serve: --record: \(failure); later requests are counted as lost until writing works again") }
    }

    public var status: Status { state.withLock { $0.status } }

    /// Writes every byte, going on after short writes; the error text if one fails.
    private static func writeAll(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer) -> String? {
        var offset = 0
        while offset < bytes.count {
            let written = write(descriptor, bytes.baseAddress.map { $0 + offset }, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return String(cString: strerror(errno))
            }
            if written == 0 { return "no progress" }
            offset += written
        }
        return nil
    }
}
