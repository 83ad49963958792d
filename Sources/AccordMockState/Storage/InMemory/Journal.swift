import AccordContract
import AccordHTTP
import AccordJSON
import AccordReport
import AccordSync
import Foundation

/// The last requests the server answered, for `GET /__accord/requests`, optionally
/// also appended to a JSONL file, one whole line per request.
public final class Journal: Sendable {
    private struct State {
        /// Packed (``PackedEntry``): 10,000 entries as the engine files them took 10 MB.
        var entries: [PackedEntry] = []
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

    /// Keeps `entry`, numbering it and, with `flows`, judging it in the order of the
    /// numbers; returns it numbered, with the rules it broke.
    @discardableResult
    public func add(_ entry: consuming JournalEntry, judgedBy flows: FlowMonitor?) -> JournalEntry {
        // Taken, not copied; packed before the lock is taken, where only the number and the flows' verdicts are set.
        var numbered = entry
        var packed = PackedEntry(numbered)
        state.withLock { state in
            state.sequence += 1
            numbered.sequence = state.sequence
            packed.number(state.sequence)
            if let flows {
                numbered.flowViolations = flows.judge(numbered)
                packed.flowViolations = numbered.flowViolations
            }
            if state.entries.count < capacity {
                // Grown by doubling up to the capacity and not past it: an array left to
                // double would hold room for 16,384 entries to keep 10,000.
                if state.entries.count == state.entries.capacity {
                    state.entries.reserveCapacity(min(capacity, max(64, state.entries.count * 2)))
                }
                state.entries.append(packed)
            } else {
                state.entries[state.head] = packed
                state.head = (state.head + 1) % capacity
            }
        }
        recorder?.append(numbered.bytes + [0x0A])
        return numbered
    }

    /// The kept entries, oldest first, that `filter` lets through, the last `limit` of them.
    public func entries(matching filter: JournalFilter, limit: Int = .max) -> [JournalEntry] {
        let all = state.withLock { Array($0.entries[$0.head...] + $0.entries[..<$0.head]) }
        // Newest first, until `limit` are found; only those are unpacked whole.
        var found: [JournalEntry] = []
        for packed in all.reversed() where found.count < limit && packed.isAdmitted(by: filter) {
            found.append(packed.entry)
        }
        return found.reversed()
    }

    /// The entry numbered `sequence`, found by its place: numbers follow one another in the ring.
    public func entry(sequence: Int) -> JournalEntry? {
        state.withLock { state -> PackedEntry? in
            let age = state.sequence - sequence
            guard age >= 0, age < state.entries.count else { return nil }
            return state.entries[(state.head + state.entries.count - 1 - age) % state.entries.count]
        }?.entry
    }

    public func clear() {
        state.withLock { state in
            state.entries.removeAll(keepingCapacity: true)
            state.head = 0
        }
    }
}
