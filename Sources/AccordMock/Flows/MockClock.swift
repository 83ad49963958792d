import Foundation
import Synchronization

/// The server's sense of time: the wall clock (or a frozen one, in tests) plus an
/// offset a tester moves with the control API.
///
/// Token expiry and `{{now}}` follow the mock clock. Signature timestamps are checked
/// against the wall clock, because a client signs with its own device clock, which
/// does not move when a tester advances the mock server's.
public final class MockClock: Sendable {
    private let frozenWall: Int64?
    private let offset = Atomic<Int64>(0)

    /// - Parameter wall: a fixed wall-clock time in Unix seconds (tests), or nil for the system clock.
    public init(wall: Int64? = nil) {
        frozenWall = wall
    }

    /// The wall clock, in Unix seconds.
    public var wallNow: Int64 { frozenWall ?? Int64(Date().timeIntervalSince1970) }

    /// The mock clock, in Unix seconds.
    public var now: Int64 { wallNow + offset.load(ordering: .relaxed) }

    /// Moves the mock clock forward (or back) by `seconds`.
    public func advance(by seconds: Int64) {
        offset.add(seconds, ordering: .relaxed)
    }

    /// Sets the mock clock to `time` (Unix seconds).
    public func set(to time: Int64) {
        offset.store(time - wallNow, ordering: .relaxed)
    }

    /// Back to the wall clock.
    public func reset() {
        offset.store(0, ordering: .relaxed)
    }
}
