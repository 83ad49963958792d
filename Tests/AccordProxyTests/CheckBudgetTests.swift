@testable import AccordProxy
import Foundation
import Testing

/// The room for answers being read into JSON trees at once (`CheckBudget`): never more
/// than its bytes together, first come first served, an oversized answer alone.
@Suite struct CheckBudgetTests {
    /// What the bodies saw, from every thread.
    private final class Log: @unchecked Sendable {
        private let lock = NSLock()
        private var inside = 0
        private(set) var mostInside = 0
        private(set) var order: [String] = []

        func enter(_ name: String, bytes: Int) {
            lock.withLock {
                inside += bytes
                mostInside = max(mostInside, inside)
                order.append(name)
            }
        }

        func leave(bytes: Int) {
            lock.withLock { inside -= bytes }
        }

        var snapshot: (mostInside: Int, order: [String]) { lock.withLock { (mostInside, order) } }
    }

    @Test func answersTogetherNeverPassTheBudget() async {
        let budget = CheckBudget(capacity: 100)
        let log = Log()
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<64 {
                let bytes = 10 + (index * 37) % 61
                group.addTask {
                    await Self.onThread {
                        budget.withRoom(for: bytes) {
                            log.enter("\(index)", bytes: bytes)
                            usleep(200)
                            log.leave(bytes: bytes)
                        }
                    }
                }
            }
        }
        #expect(log.snapshot.order.count == 64)
        #expect(log.snapshot.mostInside <= 100)
        #expect(log.snapshot.mostInside > 70, "answers that fit together are checked together")
        #expect(budget.state == (0, 0))
    }

    /// A small answer that would fit does not pass a large one that waits before it,
    /// and an answer larger than the whole budget is checked alone.
    @Test func theFirstInLineGoesFirstAndAnOversizedAnswerAlone() async throws {
        let budget = CheckBudget(capacity: 10)
        let log = Log()
        let release = DispatchSemaphore(value: 0)
        // Blocking calls run on threads of their own, never on the tasks' shared pool.
        let done = DispatchGroup()
        Self.start(done) {
            budget.withRoom(for: 4) {
                log.enter("holder", bytes: 4)
                release.wait()
                log.leave(bytes: 4)
            }
        }
        try await Self.until { budget.state == (4, 0) }
        Self.start(done) { budget.withRoom(for: 7) { log.enter("large", bytes: 7); log.leave(bytes: 7) } }
        try await Self.until { budget.state.waiting == 1 }
        Self.start(done) { budget.withRoom(for: 5) { log.enter("small", bytes: 5); log.leave(bytes: 5) } }
        try await Self.until { budget.state.waiting == 2 }
        // The small one fits beside the holder (4 + 5 <= 10) but waits behind the large one;
        // it cannot join the large one either (7 + 5 > 10), so the bodies run in the line's
        // order (two admitted together could log in either order).
        try await Task.sleep(for: .milliseconds(50))
        #expect(log.snapshot.order == ["holder"])
        release.signal()
        try await Self.until { done.wait(timeout: .now()) == .success }
        #expect(log.snapshot.order == ["holder", "large", "small"])

        let alone = Log()
        await withTaskGroup(of: Void.self) { group in
            for (name, bytes) in [("a", 4), ("oversized", 25), ("b", 4)] {
                group.addTask { await Self.onThread { budget.withRoom(for: bytes) { alone.enter(name, bytes: bytes); usleep(2_000); alone.leave(bytes: bytes) } } }
            }
        }
        #expect(alone.snapshot.mostInside == 25, "the oversized answer was checked alone")
        #expect(Set(alone.snapshot.order) == ["a", "oversized", "b"])
        #expect(budget.state == (0, 0))
    }

    private static func start(_ group: DispatchGroup, _ body: @escaping @Sendable () -> Void) {
        group.enter()
        Thread { body(); group.leave() }.start()
    }

    /// Runs `body` on a thread of its own: the budget blocks its caller.
    private static func onThread(_ body: @escaping @Sendable () -> Void) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            Thread { body(); done.resume() }.start()
        }
    }

    private static func until(_ condition: () -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(5)
        while !condition() {
            guard ContinuousClock.now < deadline else { throw CancellationError() }
            try await Task.sleep(for: .milliseconds(1))
        }
    }
}
