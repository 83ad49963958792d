import AccordMockState
import Foundation
import Synchronization

/// Polls a contracts and a fixtures directory and loads them again when they change.
///
/// A change is read only once two polls in a row see the same files, and kept only if
/// they did not move while being read: an editor or `cp` half-way through a file is
/// never loaded. What to do with the outcome (swap in an engine, report diagnostics)
/// is the caller's.
public final class ProjectWatcher: Sendable {
    private let running = Atomic<Bool>(true)

    /// Starts watching on a thread of its own.
    /// - Parameters:
    ///   - interval: how long to wait between polls.
    ///   - onChange: called on the watcher's thread with each settled change, loaded.
    public init(contracts: String, mocks: String, interval: Duration = .milliseconds(250),
                onChange: @escaping @Sendable (MockProject.Outcome) -> Void) {
        let directories = [contracts, mocks]
        let initial = MockProject.fingerprint(of: directories)
        let seconds = Double(interval.components.seconds) + Double(interval.components.attoseconds) / 1e18
        let thread = Thread { [self] in
            var served = initial
            var settling: [String]?
            while self.running.load(ordering: .relaxed) {
                Thread.sleep(forTimeInterval: seconds)
                let now = MockProject.fingerprint(of: directories)
                guard now != served else { settling = nil; continue }
                guard now == settling else { settling = now; continue }
                let outcome = MockProject.load(contracts: contracts, mocks: mocks)
                guard MockProject.fingerprint(of: directories) == now else { settling = nil; continue }
                served = now
                settling = nil
                onChange(outcome)
            }
        }
        thread.name = "accord.reload"
        thread.start()
    }

    /// Stops polling (the thread ends after its current poll).
    public func stop() {
        running.store(false, ordering: .relaxed)
    }
}
