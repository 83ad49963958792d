import AccordContract
import AccordHTTP
import AccordJSON
import AccordMock
import AccordReport
import AccordSync
import AccordValidation
import Dispatch
import Foundation

/// Turns read entries into requests to judge, on every core: parsing, the host
/// filter, and building the request the server's stages take.
struct EntryParser: Sendable {
    /// What became of one entry.
    enum Item: Sendable {
        case check(CapturedExchange, MockRequest)
        /// Another host than `--host`, or a path outside the base path.
        case otherHost
        /// A journal entry whose body was too large to keep.
        case bodyLeftOut
        /// A HAR entry whose binary part the capture stored as text, losing its bytes.
        case bodyLost
        /// CORS and control traffic in a journal.
        case ignored
    }

    /// A batch parsed: its items up to the first problem, and that problem.
    struct Batch: Sendable {
        var items: [Item]
        var failure: CaptureError?
    }

    let basePath: String
    let host: String?
    /// Whether journal lines are read for the flow rules too (`--check-flows`).
    var readsFlows = false

    func parse(_ entries: [CaptureCheck.Entry]) -> Batch {
        let results = entries.concurrentMap { entry -> Result<Item, CaptureError> in
            do throws(CaptureError) {
                let exchange = entry.isHAR ? try HARFile.exchange(entry.bytes, origin: entry.origin)
                                           : try JournalLine.exchange(entry.bytes, origin: entry.origin, readsFlows: readsFlows)
                return .success(item(for: exchange))
            } catch {
                return .failure(error)
            }
        }
        var batch = Batch(items: [])
        batch.items.reserveCapacity(results.count)
        for result in results {
            switch result {
            case .success(let item): batch.items.append(item)
            case .failure(let error): batch.failure = error; return batch
            }
        }
        return batch
    }

    private func item(for exchange: CapturedExchange) -> Item {
        if let host {
            if let entryHost = exchange.host, entryHost != host { return .otherHost }
        } else if !exchange.path.hasPrefix(basePath) {
            return .otherHost
        }
        if exchange.recordedVerdict.flatMap(Verdict.init(rawValue:)).map({ !$0.isObserved }) ?? false { return .ignored }
        if exchange.omittedBodyBytes != nil { return .bodyLeftOut }
        if exchange.bodyLost { return .bodyLost }
        return .check(exchange, MockRequest(method: exchange.method, target: exchange.target, headers: exchange.headers, body: exchange.body))
    }
}

/// A batch parsed in the background while the one before it is judged.
final class PendingBatch: Sendable {
    private let done = DispatchSemaphore(value: 0)
    private let result = Locked<EntryParser.Batch?>(nil)

    init(_ entries: [CaptureCheck.Entry], parser: EntryParser) {
        DispatchQueue.global().async { [done, result] in
            let batch = parser.parse(entries)
            result.withLock { $0 = batch }
            done.signal()
        }
    }

    /// The parsed batch, once it is.
    func wait() -> EntryParser.Batch {
        done.wait()
        return result.withLock { $0 } ?? EntryParser.Batch(items: [])
    }
}
