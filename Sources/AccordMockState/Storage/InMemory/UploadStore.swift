import AccordJSON
import AccordSync

/// Uploads in memory: at most ``budgetBytes`` of file bytes and ``maxFiles`` files;
/// past either the oldest files go first.
public final class UploadStore: UploadStorage {
    /// The default budget: 64 MiB of file bytes.
    public static let defaultBudget = 64 << 20
    /// The most files kept, whatever their size.
    public static let maxFiles = 10_000

    private struct State {
        var files: [String: (file: StoredFile, bytes: [UInt8], generation: Int)] = [:]
        /// Ids in the order they were stored, oldest first, each with the generation it
        /// was stored in: an entry whose file was stored again since is stale and skipped.
        /// `head` is the next to look at.
        var order: [(id: String, generation: Int)] = []
        var head = 0
        var generation = 0
        var bytes = 0
        var evicted = 0
    }

    public let budgetBytes: Int
    private let state = Locked(State())

    public init(budgetBytes: Int = UploadStore.defaultBudget) {
        self.budgetBytes = max(1, budgetBytes)
    }

    public func store(_ bytes: [UInt8], contentType: String, at time: Int64, id given: String? = nil) -> StoredFile? {
        guard bytes.count <= budgetBytes else { return nil }
        let id = given ?? SecureRandom.hex(16)
        let file = StoredFile(id: id, contentType: contentType, size: bytes.count, storedAt: time)
        state.withLock { state in
            // A policy's upload sent again replaces its file, which becomes the newest.
            if let replaced = state.files.removeValue(forKey: id) { state.bytes -= replaced.bytes.count }
            while state.head < state.order.count, state.bytes + bytes.count > budgetBytes || state.files.count >= Self.maxFiles {
                let oldest = state.order[state.head]
                state.head += 1
                if state.files[oldest.id]?.generation == oldest.generation, let gone = state.files.removeValue(forKey: oldest.id) {
                    state.bytes -= gone.bytes.count
                    state.evicted += 1
                }
            }
            state.generation += 1
            state.files[id] = (file, bytes, state.generation)
            state.order.append((id, state.generation))
            state.bytes += bytes.count
            // Stale and evicted entries are dropped once they outnumber the files, so the order stays within twice the files.
            if state.order.count - state.head > 2 * state.files.count + 64 || state.head > 1_024 && state.head * 2 > state.order.count {
                state.order = state.order[state.head...].filter { state.files[$0.id]?.generation == $0.generation }
                state.head = 0
            }
        }
        return file
    }

    /// How many entries the eviction order holds (stale ones included), for tests of its bound.
    package var orderLength: Int { state.withLock { $0.order.count - $0.head } }

    public func file(_ id: String) -> (file: StoredFile, bytes: [UInt8])? {
        state.withLock { state in state.files[id].map { ($0.file, $0.bytes) } }
    }

    public var usage: UploadUsage {
        state.withLock { UploadUsage(files: $0.files.count, bytes: $0.bytes, budgetBytes: budgetBytes, evicted: $0.evicted) }
    }

    public func reset() {
        state.withLock { $0 = State() }
    }
}
