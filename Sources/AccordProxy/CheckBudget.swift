internal import CMalloc
import Foundation

/// Room for the upstream answers being checked at once, in their bytes.
///
/// Checking an answer reads it into a JSON tree, which takes up to about twenty times
/// the answer's size (an array of small objects), so every upstream worker reading an
/// answer at its `--max-answer` at once could take more memory than the machine has.
/// An answer waits here until the answers being checked leave room for it; the first
/// in line goes first, so a large answer is not passed over by small ones forever, and
/// one larger than the whole budget is checked alone. After a large answer, the freed
/// pages go back to the system: the allocator keeps each thread's freed memory, so
/// every upstream worker would come to hold a tree's worth.
final class CheckBudget: @unchecked Sendable {
    /// The bytes of answers checked at once.
    let capacity: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var used = 0
    private var nextTicket = 0
    private var turn = 0

    init(capacity: Int) {
        self.capacity = capacity
    }

    /// `body`, run once `bytes` fit beside the answers being checked.
    func withRoom<Result>(for bytes: Int, _ body: () -> Result) -> Result {
        condition.lock()
        let ticket = nextTicket
        nextTicket += 1
        while ticket != turn || (used > 0 && used > capacity - bytes) { condition.wait() }
        turn += 1
        used += bytes
        // The next in line may fit beside this one.
        condition.broadcast()
        condition.unlock()
        defer {
            if bytes >= Self.trimBytes { accord_give_free_pages_back() }
            condition.lock()
            used -= bytes
            condition.broadcast()
            condition.unlock()
        }
        return body()
    }

    /// The answers after whose check the freed memory is given back to the system.
    static let trimBytes = 1 << 20

    /// The bytes of the answers being checked now, and how many answers wait for room.
    var state: (bytesInUse: Int, waiting: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (used, nextTicket - turn)
    }
}
