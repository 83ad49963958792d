import AccordFiles
import AccordJSON
import AccordMock
import AccordMockState
import AccordMocksFormat
import Foundation

/// `serve --state FILE`: the collections' records loaded at start and written on stop,
/// so a restart keeps what the app wrote.
struct StateFile {
    var path: String
    var messages: HostMessages

    /// Restores the collections; a missing file is a fresh start, a bad one one warning and the seeds.
    func load(into state: MockState, project: MockProject) {
        var status = stat()
        if stat(path, &status) == 0, status.st_mode & S_IFMT != S_IFREG {
            messages.warn("warning: --state: \(path) is not a regular file (a device, a directory, or a link to one); "
                          + "starting from the seeds, and the state is written there as a file on stop")
            return
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            messages.say("accord serve: no state file at \(path) yet; starting from the seeds")
            return
        }
        let records: [String: [String: [JSONValue]]]
        do {
            records = try StateSnapshot.decode(Array(data), collections: project.collections, contract: project.contract)
        } catch {
            messages.warn(error.rendered(file: path) + "; starting from the seeds")
            return
        }
        do {
            try state.collections.restore(records)
            let count = records.values.reduce(0) { $0 + $1.values.reduce(0) { $0 + $1.count } }
            let sessions = try state.collections.counts.sessions
            messages.say("accord serve: state loaded from \(path): \(sessions) session\(sessions == 1 ? "" : "s"), "
                         + "\(count) record\(count == 1 ? "" : "s")")
        } catch {
            messages.warn("error: --state: the storage failed restoring \(path) (\(error)); starting from the seeds")
        }
    }

    /// Writes the collections' records, whole or not at all.
    func save(_ state: MockState, collections: [String: CollectionDefinition]) {
        do {
            try AtomicFile.write(StateSnapshot.encode(state.collections, collections: collections), to: path)
            let sessions = try state.collections.counts.sessions
            messages.say("accord serve: state written to \(path) (\(sessions) session\(sessions == 1 ? "" : "s"))")
        } catch {
            messages.warn("error: \(error)")
        }
    }
}
