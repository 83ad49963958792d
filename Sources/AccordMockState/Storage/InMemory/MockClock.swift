import Foundation
import Synchronization

/// The server's sense of time: the wall clock (or a frozen one, in tests) plus an
/// offset a tester moves with the control API.
///
/// Token expiry and `{{now}}` follow the mock clock. Signature timestamps are checked
/// against the wall clock, because a client signs with its own device clock, which
/// does not move when a tester advances the mock server's.
///
/// The offset stays within ±``maxOffsetSeconds`` (100 years), so every later sum of
/// the clock and a bounded duration fits in `Int64`.
public final class MockClock: Sendable {
    /// How far the mock clock may be from the wall clock: 100 years.
    public static let maxOffsetSeconds: Int64 = 100 * 366 * 86_400


    /// A pinned wall-clock time, or ``systemWall`` for the system clock.
    private let pinnedWall: Atomic<Int64>
    private let offset = Atomic<Int64>(0)
    private static let systemWall = Int64.min

    /// - Parameter wall: a fixed wall-clock time in Unix seconds (tests, checking a
    ///   capture), or nil for the system clock.
    public init(wall: Int64? = nil) {
        pinnedWall = Atomic(wall ?? Self.systemWall)
    }

    /// The wall clock, in Unix seconds.
    public var wallNow: Int64 {
        let pinned = pinnedWall.load(ordering: .relaxed)
        return pinned == Self.systemWall ? Int64(Date().timeIntervalSince1970) : pinned
    }

    /// Pins the wall clock to `time` (Unix seconds): `accord check-requests` judges each
    /// captured request at the time it was sent.
    public func pinWall(to time: Int64) {
        pinnedWall.store(time == Self.systemWall ? time + 1 : time, ordering: .relaxed)
    }

    /// The mock clock, in Unix seconds.
    public var now: Int64 { wallNow + offset.load(ordering: .relaxed) }

    /// Moves the mock clock forward (or back) by `seconds`.
    public func advance(by seconds: Int64) throws(StorageError) {
        var current = offset.load(ordering: .relaxed)
        while true {
            let (moved, overflow) = current.addingReportingOverflow(seconds)
            guard !overflow, Self.isAllowed(offset: moved) else {
                throw .clockOutOfRange("advancing by \(seconds) s would put the mock clock more than 100 years from the wall clock")
            }
            let (exchanged, original) = offset.compareExchange(expected: current, desired: moved, ordering: .relaxed)
            if exchanged { return }
            current = original
        }
    }

    /// Sets the mock clock to `time` (Unix seconds).
    public func set(to time: Int64) throws(StorageError) {
        let (moved, overflow) = time.subtractingReportingOverflow(wallNow)
        guard !overflow, Self.isAllowed(offset: moved) else {
            throw .clockOutOfRange("\(time) is more than 100 years from the wall clock")
        }
        offset.store(moved, ordering: .relaxed)
    }

    /// Back to the wall clock.
    public func reset() {
        offset.store(0, ordering: .relaxed)
    }

    private static func isAllowed(offset: Int64) -> Bool {
        (-maxOffsetSeconds...maxOffsetSeconds).contains(offset)
    }
}
