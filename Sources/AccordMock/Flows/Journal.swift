import AccordContract
import AccordJSON
import AccordSync
import Foundation

/// One request as the journal keeps it.
public struct JournalEntry: Sendable, Equatable {
    public var sequence = 0
    /// The mock clock when the request was answered.
    public var time: Int64
    public var method: String
    public var path: String
    public var endpoint: String?
    public var session: String
    public var user: Int?
    public var status: Int
    public var code: Int?
    /// The fixture or example that answered.
    public var answer: String?
    /// What injected the answer: `header`, `rule:3`, `scenario:token-expiry#1`.
    public var injected: String?
    public var verdict: Verdict

    /// The entry as a JSON object.
    public var json: JSONValue {
        var members: [JSONValue.Member] = [
            .init("seq", .int(sequence)), .init("time", .string(RFC3339.format(unixSeconds: time))),
            .init("method", .string(method)), .init("path", .string(path)),
        ]
        if let endpoint { members.append(.init("endpoint", .string(endpoint))) }
        members.append(.init("session", .string(session)))
        if let user { members.append(.init("user", .int(user))) }
        members.append(.init("status", .int(status)))
        if let code { members.append(.init("code", .int(code))) }
        if let answer { members.append(.init("answer", .string(answer))) }
        if let injected { members.append(.init("injected", .string(injected))) }
        members.append(.init("verdict", .string(verdict.rawValue)))
        return .object(members)
    }
}

/// The last requests the server answered, for `GET /__accord/requests`, optionally
/// also appended to a JSONL file, one whole line per request.
public final class Journal: Sendable {
    private struct State {
        var entries: [JournalEntry] = []
        var head = 0
        var sequence = 0
    }

    private let state = Locked(State())
    /// How many entries are kept in memory; also the largest `limit` a reader may ask for.
    public let capacity: Int
    private let recorder: JournalRecorder?

    /// - Parameters:
    ///   - capacity: how many entries are kept in memory.
    ///   - recorder: the file each entry is appended to as one line.
    public init(capacity: Int = 10_000, recorder: JournalRecorder? = nil) {
        self.capacity = max(1, capacity)
        self.recorder = recorder
    }

    /// What the recorder wrote and lost, when recording.
    public var recordingStatus: JournalRecorder.Status? { recorder?.status }

    /// Keeps `entry`, numbering it.
    public func add(_ entry: JournalEntry) {
        let numbered = state.withLock { state -> JournalEntry in
            state.sequence += 1
            var numbered = entry
            numbered.sequence = state.sequence
            if state.entries.count < capacity {
                state.entries.append(numbered)
            } else {
                state.entries[state.head] = numbered
                state.head = (state.head + 1) % capacity
            }
            return numbered
        }
        recorder?.append(JSONWriter.bytes(numbered.json) + [0x0A])
    }

    /// The kept entries, oldest first, of `session` if given, the last `limit` of them.
    public func entries(session: String? = nil, limit: Int = .max) -> [JournalEntry] {
        let all = state.withLock { Array($0.entries[$0.head...] + $0.entries[..<$0.head]) }
        let filtered = session.map { session in all.filter { $0.session == session } } ?? all
        return Array(filtered.suffix(max(0, limit)))
    }

    public func clear() {
        state.withLock { state in
            state.entries.removeAll()
            state.head = 0
        }
    }
}
