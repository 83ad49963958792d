import AccordSync
internal import CMicroHTTPD
import Foundation
import Synchronization

/// The open connections and, for each, where its current request stands; closes those
/// that take too long over it.
///
/// A peer that sends one byte a second keeps resetting libmicrohttpd's idle timeout,
/// so that timeout alone lets a thousand such peers hold every connection. These
/// deadlines count whatever trickles in meanwhile:
/// - the head: from the accept (or the end of the previous request on a keep-alive
///   connection) to the complete head, at most ``Deadlines/headMilliseconds``;
/// - the whole request, head and body: at most ``Deadlines/requestMilliseconds``;
/// - the body, after its first ``Deadlines/bodyGraceMilliseconds``: at least
///   ``Deadlines/minimumBodyBytesPerSecond`` on average.
final class ConnectionRegistry: Sendable {
    /// How long each part of a request may take.
    struct Deadlines: Sendable {
        var headMilliseconds: Int
        var requestMilliseconds: Int
        var bodyGraceMilliseconds: Int
        var minimumBodyBytesPerSecond: Int
    }

    /// One connection's request clock, kept as MHD's socket context.
    final class Clock: Sendable {
        let descriptor: Int32
        /// Milliseconds since the registry's origin when the connection began waiting
        /// for a head; ``receiving`` while its body arrives; ``handling`` while it is
        /// answered; ``closing`` once shut down.
        fileprivate let waitingSince: Atomic<Int>
        /// When the current request's head began (its whole-request deadline counts from there).
        fileprivate let requestSince = Atomic<Int>(0)
        /// When the head was complete and the body began.
        fileprivate let bodySince = Atomic<Int>(0)
        /// The body bytes received so far.
        fileprivate let bodyBytes = Atomic<Int>(0)
        fileprivate static let handling = -1
        fileprivate static let closing = -2
        fileprivate static let receiving = -3
        private let origin: ContinuousClock.Instant

        fileprivate init(descriptor: Int32, origin: ContinuousClock.Instant, now: ContinuousClock.Instant) {
            self.descriptor = descriptor
            self.origin = origin
            waitingSince = Atomic(Self.milliseconds(from: origin, to: now))
        }

        /// The head is complete: the body's clock starts, the head's stops.
        func headReceived(at now: ContinuousClock.Instant) {
            requestSince.store(max(0, waitingSince.load(ordering: .relaxed)), ordering: .relaxed)
            bodySince.store(Self.milliseconds(from: origin, to: now), ordering: .relaxed)
            bodyBytes.store(0, ordering: .relaxed)
            waitingSince.store(Self.receiving, ordering: .relaxed)
        }

        /// `count` more body bytes arrived.
        func bodyReceived(_ count: Int) {
            bodyBytes.add(count, ordering: .relaxed)
        }

        /// The request is read: no deadline while it is answered.
        func requestRead() {
            waitingSince.store(Self.handling, ordering: .relaxed)
        }

        /// The answer is sent: the next head's deadline starts now.
        func requestEnded(at now: ContinuousClock.Instant) {
            waitingSince.store(Self.milliseconds(from: origin, to: now), ordering: .relaxed)
        }

        fileprivate static func milliseconds(from origin: ContinuousClock.Instant, to now: ContinuousClock.Instant) -> Int {
            max(0, (now - origin).wholeMicroseconds / 1_000)
        }

        /// Whether the request is past a deadline at `current` (milliseconds since the origin).
        fileprivate func isOverdue(at current: Int, _ deadlines: Deadlines) -> Bool {
            let since = waitingSince.load(ordering: .relaxed)
            if since >= 0 { return current - since > deadlines.headMilliseconds }
            guard since == Self.receiving else { return false }
            if current - requestSince.load(ordering: .relaxed) > deadlines.requestMilliseconds { return true }
            let bodyTime = current - bodySince.load(ordering: .relaxed)
            guard bodyTime > deadlines.bodyGraceMilliseconds else { return false }
            // bytes / seconds < rate, without a division: bytes * 1000 < rate * milliseconds (both far from overflow).
            return bodyBytes.load(ordering: .relaxed) * 1_000 < deadlines.minimumBodyBytesPerSecond * bodyTime
        }

        fileprivate var isReceivingBody: Bool { waitingSince.load(ordering: .relaxed) == Self.receiving }
    }

    private let origin = ContinuousClock.now
    private let deadlines: Deadlines
    private let open = Locked<[ObjectIdentifier: Clock]>([:])

    init(deadlines: Deadlines) {
        var deadlines = deadlines
        deadlines.headMilliseconds = max(1_000, deadlines.headMilliseconds)
        deadlines.requestMilliseconds = max(deadlines.headMilliseconds, deadlines.requestMilliseconds)
        self.deadlines = deadlines
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

    /// Shuts down every connection past a deadline (MHD then sees the end of the
    /// stream and closes it); returns how many were waiting for a head and how many
    /// were sending a body.
    func closeOverdue(now: ContinuousClock.Instant) -> (heads: Int, bodies: Int) {
        let current = Clock.milliseconds(from: origin, to: now)
        return open.withLock { open in
            var closed = (heads: 0, bodies: 0)
            for clock in open.values where clock.isOverdue(at: current, deadlines) {
                if clock.isReceivingBody { closed.bodies += 1 } else { closed.heads += 1 }
                clock.waitingSince.store(Clock.closing, ordering: .relaxed)
                shutdown(clock.descriptor, Int32(SHUT_RDWR))
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
