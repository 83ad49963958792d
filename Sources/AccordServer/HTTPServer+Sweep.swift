import AccordHTTP
internal import CMicroHTTPD
import Foundation
import Synchronization

// What the server does beside requests: the once-a-second sweep of overdue
// connections and hung-up streams, and the process settings it starts with.
extension HTTPServer {
    /// Request bodies of megabytes come and go; glibc's malloc raises its mmap threshold
    /// each time such a block is freed, so later bodies land on the heap and their pages
    /// stay with the process (300 uploads of 4 MiB kept 1.1 GB). A fixed threshold keeps
    /// every block over 256 KiB in its own mapping, given back when freed.
    static func returnLargeBuffersToTheSystem() {
        accord_fix_mmap_threshold(256 << 10)
    }

    /// Raises the process's open-file limit to `needed` (within the hard limit).
    static func allowDescriptors(_ needed: Int) throws(StartError) {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return }
        guard limit.rlim_cur < rlim_t(needed) else { return }
        guard limit.rlim_max >= rlim_t(needed) else {
            throw StartError(description: "\(needed - 64) connections need \(needed) open files; the hard limit is \(limit.rlim_max) "
                             + "(lower --max-connections or raise 'ulimit -Hn')")
        }
        limit.rlim_cur = rlim_t(needed)
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    func enforceHeaderDeadline() {
        let closed = connections.closeOverdue(now: ContinuousClock.now)
        if closed.heads > 0 {
            log("accord serve: closed \(closed.heads) connection(s) that sent no complete request head within \(configuration.headerTimeoutSeconds) s")
        }
        if closed.bodies > 0 {
            log("accord serve: closed \(closed.bodies) connection(s) whose request took over \(configuration.requestTimeoutSeconds) s "
                + "or whose body came slower than \(configuration.minimumBodyBytesPerSecond) bytes/s after \(configuration.bodyGraceSeconds) s")
        }
    }

    func watchForHangUp(_ handle: ConnectionHandle, descriptor: Int32, pipe: BodyPipe) {
        guard descriptor >= 0 else { return }
        idleStreams.withLock { $0[handle] = (descriptor, pipe) }
    }

    func stopWatching(_ handle: ConnectionHandle) {
        idleStreams.withLock { _ = $0.removeValue(forKey: handle) }
    }

    /// Ends the parked streams whose peer hung up: their pipe fails, which wakes the
    /// connection, and libmicrohttpd closes it and frees the stream.
    func endHungUpStreams() {
        let watched = idleStreams.withLock { Array($0.values) }
        for stream in watched {
            var entry = pollfd(fd: stream.descriptor, events: Int16(Self.hangUpEvents), revents: 0)
            if poll(&entry, 1, 0) > 0, Int32(entry.revents) & (Self.hangUpEvents | Int32(POLLHUP) | Int32(POLLERR)) != 0 {
                stream.pipe.finish(failed: true)
            }
        }
    }

    /// `POLLRDHUP` where the system has it (the peer shut its side down), else `POLLHUP`.
    static let hangUpEvents = Int32(accord_poll_hang_up())
}
