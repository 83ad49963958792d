import AccordMock
import AccordMockState
import Dispatch
import Foundation

/// SIGINT, SIGTERM or `POST /__accord/shutdown`. Made first thing in a command, it
/// blocks both signals in this thread, which every thread started later inherits, and
/// takes them with `sigwait` on a thread of its own: a stop sent the moment the banner
/// is read stays pending instead of being lost or killing the process. A second
/// signal during the graceful stop ends the process at once.
public final class StopRequest: @unchecked Sendable {
    private let received = DispatchSemaphore(value: 0)

    /// Takes SIGINT and SIGTERM from here on, in this thread and every thread started later.
    public init() {
        // A file-size limit must fail a write (the journal's, the snapshot's, the report's), which each reports, not kill the server.
        signal(SIGXFSZ, SIG_IGN)
        var signals = sigset_t()
        sigemptyset(&signals)
        sigaddset(&signals, SIGINT)
        sigaddset(&signals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &signals, nil)
        let waiter = Thread { [received, signals] in
            var signals = signals
            var taken: Int32 = 0
            var count = 0
            while sigwait(&signals, &taken) == 0 {
                count += 1
                if count > 1 { _exit(128 + taken) }
                received.signal()
            }
        }
        waiter.name = "accord.stop-signals"
        waiter.start()
    }

    /// `POST /__accord/shutdown` stops too.
    public func include(_ shutdown: ShutdownSwitch) {
        shutdown.onRequest { [received] in received.signal() }
    }

    /// Blocks until the stop comes.
    public func wait() {
        received.wait()
    }
}
