import AccordSync
internal import CMicroHTTPD
import Foundation
import Synchronization

/// The open connections and, for each, when it began waiting for its next request
/// head; closes those that have not sent a whole head within the deadline.
///
/// A peer that sends one header byte a second keeps resetting libmicrohttpd's idle
/// timeout, so that timeout alone lets a thousand such peers hold every connection.
/// This deadline counts from the accept (or the end of the previous request on a
/// keep-alive connection) to the complete head, whatever trickles in meanwhile.
final class ConnectionRegistry: Sendable {
    /// One connection's request-head clock, kept as MHD's socket context.
    final class Clock: Sendable {
        let descriptor: Int32
        /// Milliseconds since the registry's origin when the connection began waiting
        /// for a head; ``handling`` while a request is being answered; ``closing`` once shut down.
        fileprivate let waitingSince: Atomic<Int>
        fileprivate static let handling = -1
        fileprivate static let closing = -2
        private let origin: ContinuousClock.Instant

        fileprivate init(descriptor: Int32, origin: ContinuousClock.Instant, now: ContinuousClock.Instant) {
            self.descriptor = descriptor
            self.origin = origin
            waitingSince = Atomic(Self.milliseconds(from: origin, to: now))
        }

        /// The head is complete: no deadline while the request is answered.
        func requestStarted() {
            waitingSince.store(Self.handling, ordering: .relaxed)
        }

        /// The answer is sent: the next head's deadline starts now.
        func requestEnded(at now: ContinuousClock.Instant) {
            waitingSince.store(Self.milliseconds(from: origin, to: now), ordering: .relaxed)
        }

        fileprivate static func milliseconds(from origin: ContinuousClock.Instant, to now: ContinuousClock.Instant) -> Int {
            max(0, (now - origin).wholeMicroseconds / 1_000)
        }
    }

    private let origin = ContinuousClock.now
    private let deadlineMilliseconds: Int
    private let open = Locked<[ObjectIdentifier: Clock]>([:])

    init(headerTimeoutSeconds: Int) {
        deadlineMilliseconds = max(1, headerTimeoutSeconds) * 1_000
    }

    /// A connection was accepted; returns its clock, retained, for MHD's socket context.
    func opened(descriptor: Int32, at now: ContinuousClock.Instant) -> UnsafeMutableRawPointer {
        let clock = Clock(descriptor: descriptor, origin: origin, now: now)
        open.withLock { $0[ObjectIdentifier(clock)] = clock }
        return Unmanaged.passRetained(clock).toOpaque()
    }

    /// MHD is about to close the connection whose socket context is `context`.
    func closed(_ context: UnsafeMutableRawPointer) {
        let clock = Unmanaged<Clock>.fromOpaque(context).takeRetainedValue()
        // Under the lock: a sweep never shuts down a descriptor MHD has closed and reused.
        open.withLock { _ = $0.removeValue(forKey: ObjectIdentifier(clock)) }
    }

    /// The clock of a connection, from its socket context.
    static func clock(of connection: OpaquePointer) -> Clock? {
        accord_connection_socket_context(connection).map { Unmanaged<Clock>.fromOpaque($0).takeUnretainedValue() }
    }

    /// Shuts down every connection waiting for a head longer than the deadline (MHD
    /// then sees the end of the stream and closes it); returns how many.
    func closeOverdue(now: ContinuousClock.Instant) -> Int {
        let current = Clock.milliseconds(from: origin, to: now)
        return open.withLock { open in
            var closed = 0
            for clock in open.values {
                let since = clock.waitingSince.load(ordering: .relaxed)
                guard since >= 0, current - since > deadlineMilliseconds else { continue }
                clock.waitingSince.store(Clock.closing, ordering: .relaxed)
                shutdown(clock.descriptor, Int32(SHUT_RDWR))
                closed += 1
            }
            return closed
        }
    }
}

/// Notices that a flood can multiply (libmicrohttpd's), at most one line a second; the ones held back are counted
/// in the next line, so a flood of refused connections cannot flood the terminal.
final class NoticeLog: Sendable {
    private struct State {
        var second: Int64 = 0
        var heldBack = 0
    }

    private let state = Locked(State())
    private let output: @Sendable (String) -> Void

    init(write: @escaping @Sendable (String) -> Void) {
        output = write
    }

    func write(_ line: String) {
        let second = Int64(Date().timeIntervalSince1970)
        let heldBack: Int? = state.withLock { state in
            guard state.second != second else {
                state.heldBack += 1
                return nil
            }
            defer { state = State(second: second, heldBack: 0) }
            return state.heldBack
        }
        guard let heldBack else { return }
        output(heldBack > 0 ? "\(line) (and \(heldBack) more notice(s) in the last second)" : line)
    }
}

extension Duration {
    /// The duration in whole microseconds, in integer arithmetic (a `Double` quotient
    /// would need a checked conversion), saturating at `Int`'s range.
    var wholeMicroseconds: Int {
        let (seconds, attoseconds) = components
        let (micros, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (total, carried) = micros.addingReportingOverflow(attoseconds / 1_000_000_000_000)
        return carried ? (seconds < 0 ? .min : .max) : Int(total)
    }
}
