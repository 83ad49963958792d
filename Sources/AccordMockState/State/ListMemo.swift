import AccordJSON
import AccordMocksFormat
import AccordSync

/// What list and count effects computed from a session's records, kept while the records
/// stay the same (their ``RecordStorage`` version): a repeated read of an unchanged
/// inbox is a lookup and a binary search for its cursor, not a scan and a sort; and
/// whole answers that read nothing but the records and the query, so that the same page
/// read again is a lookup and nothing more.
///
/// Rows hold the records as the answer shows them (cut to the items' type), written as
/// JSON, so a page is copied, not written again. Bounded: at most ``rowLimit`` rows,
/// ``bodyByteLimit`` bytes of answers and ``entryLimit`` entries (a client sending a
/// new filter value each time makes a new one); past any of them it is emptied and
/// starts over.
package final class ListMemo: Sendable {
    /// One sorted, filtered list, or one count, of one session's records at one version.
    package struct Key: Hashable, Sendable {
        package var session: String
        package var collection: String
        package var version: UInt64
        /// Which effect asked.
        package var asker: Asker
        /// Its filters' values for this request.
        package var values: [Part]

        package init(session: String, collection: String, version: UInt64, asker: Asker, values: [Part]) {
            self.session = session
            self.collection = collection
            self.version = version
            self.asker = asker
            self.values = values
        }

        /// What tells one request's key from another's: the session, the records' version,
        /// which list, count or answer, and the filters' values. The effect's place, the
        /// answer's endpoint and fixture and the filters' pointers are the same text on
        /// every request of one effect (tens of bytes, hashed on every page read), so only
        /// `==` compares them.
        package func hash(into hasher: inout Hasher) {
            hasher.combine(session)
            hasher.combine(version)
            switch asker {
            case .list: hasher.combine(-1)
            case .count(let index, _): hasher.combine(index)
            case .answer: hasher.combine(-2)
            }
            for part in values {
                switch part {
                case .condition(_, _, let value): hasher.combine(value)
                case .query(_, let text): hasher.combine(text)
                case .version(let version): hasher.combine(version)
                case .parameter(let text): hasher.combine(text)
                }
            }
        }

        /// About how many bytes the key holds, for ``bodyByteLimit``: its texts.
        var size: Int {
            values.reduce(session.utf8.count + collection.utf8.count) { size, part in
                switch part {
                case .parameter(let text?), .query(_, let text): size + text.utf8.count
                case .condition(_, _, let value): size + value.approximateSize
                case .version, .parameter(nil): size + 8
                }
            }
        }
    }

    /// The effect that asks, by where it was written (``Effect/place``).
    package enum Asker: Hashable, Sendable {
        case list(place: String)
        /// The `index`th count of the effect.
        case count(index: Int, place: String)
        /// A whole answer: the endpoint's fixture (its label) that reads the records alone.
        case answer(endpoint: String, fixture: String)
    }

    /// One filter of a list or count with its value for this request: hashed as it is,
    /// not written out as text first.
    package enum Part: Hashable, Sendable {
        /// A `where` condition, its template rendered.
        case condition(pointer: JSONPointer, comparison: RecordFilter.Comparison, value: JSONValue)
        /// A query filter and the text the request sent.
        case query(pointer: JSONPointer, text: String)
        /// The version of another collection an answer reads.
        case version(UInt64)
        /// What the request sent for a query parameter an answer reads (nil: not sent).
        case parameter(String?)
    }

    /// A record's place, and the record as the answer shows it (cut to the items' type)
    /// written as JSON: all a page needs of it, so the cut record itself is not kept.
    package typealias Row = (position: ListOrder.Position, json: [UInt8])

    private enum Entry {
        case rows([Row])
        case count(Int)
        case body([UInt8])
    }

    private struct State {
        var entries: [Key: Entry] = [:]
        var rows = 0
        var bodyBytes = 0
    }

    /// The most rows held in all.
    package static let rowLimit = 250_000
    /// The most bytes of answers (and their keys) held in all.
    package static let bodyByteLimit = 16 << 20
    /// The most lists, counts and answers held.
    package static let entryLimit = 10_000

    private let state = Locked(State())

    package init() {}

    /// The rows for `key`, computed by `compute` (outside the lock) when not known.
    package func rows(for key: Key, _ compute: () -> [Row]) -> [Row] {
        if case .rows(let rows)? = state.withLock({ $0.entries[key] }) { return rows }
        let rows = compute()
        store(.rows(rows), rowCount: rows.count, for: key)
        return rows
    }

    /// The count for `key`, computed by `compute` when not known.
    package func count(for key: Key, _ compute: () -> Int) -> Int {
        if case .count(let count)? = state.withLock({ $0.entries[key] }) { return count }
        let count = compute()
        store(.count(count), for: key)
        return count
    }

    /// The answer's body for `key`, made by `compute` (outside the lock) when not known;
    /// what `compute` throws is not kept.
    package func body<Failure: Error>(for key: Key, _ compute: () throws(Failure) -> [UInt8]) throws(Failure) -> [UInt8] {
        if case .body(let body)? = state.withLock({ $0.entries[key] }) { return body }
        let body = try compute()
        let bytes = body.count + key.size
        if bytes <= Self.bodyByteLimit { store(.body(body), bodyBytes: bytes, for: key) }
        return body
    }

    private func store(_ entry: Entry, rowCount: Int = 0, bodyBytes: Int = 0, for key: Key) {
        state.withLock { state in
            if state.rows + rowCount > Self.rowLimit || state.bodyBytes + bodyBytes > Self.bodyByteLimit
                || state.entries.count >= Self.entryLimit {
                state.entries.removeAll(keepingCapacity: true)
                state.rows = 0
                state.bodyBytes = 0
            }
            state.entries[key] = entry
            state.rows += rowCount
            state.bodyBytes += bodyBytes
        }
    }
}
