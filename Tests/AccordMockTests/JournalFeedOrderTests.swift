import AccordHTTP
@testable import AccordMock
import AccordMockState
import Foundation
import Testing

/// A shared journal's reader (Redis) hands the live feed entries in the journal's order
/// and goes on from the oldest number an open stream was offered: a stream that opens
/// at number N gets what follows N, and a reader that reads an entry again gives it to
/// no stream twice.
@Suite struct JournalFeedOrderTests {
    private func entry(_ sequence: Int) -> JournalEntry {
        var entry = JournalEntry(time: 0, wallTime: 0, method: "GET", path: "/api/v1/signals/quota", endpoint: "signal.quota", session: "s",
                                 status: 200, verdict: .ok)
        entry.sequence = sequence
        return entry
    }

    /// The `id:` of every event a stream holds, read until `count` arrived or 2 s passed
    /// (the feed moves queued entries into the streams every 100 ms), then 0.2 s more.
    private func ids(_ pipe: BodyPipe, count: Int) -> [Int] {
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        var text = ""
        var ids: [Int] { text.split(separator: "\n").compactMap { $0.hasPrefix("id: ") ? Int($0.dropFirst(4)) : nil } }
        let deadline = Date().addingTimeInterval(2)
        var extra: Date?
        while Date() < (extra ?? deadline) {
            if case .bytes(let read) = buffer.withUnsafeMutableBytes({ pipe.read(into: $0) }) {
                text += String(decoding: buffer.prefix(read), as: UTF8.self)
            }
            if extra == nil && ids.count >= count { extra = Date().addingTimeInterval(0.2) }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return ids
    }

    @Test func aStreamGetsWhatFollowsTheNumberItOpenedAtAndNothingTwice() throws {
        let feed = JournalFeed()
        #expect(feed.oldestSeen == nil)
        let first = try feed.subscribe(filter: JournalFilter(), replay: [], after: 2)
        for sequence in 1...4 { feed.publishInOrder(entry(sequence)) }
        #expect(ids(first, count: 2) == [3, 4])
        let second = try feed.subscribe(filter: JournalFilter(), replay: [entry(2)], after: 1)
        #expect(feed.oldestSeen == 2, "the reader goes back for the second stream")
        for sequence in 2...5 { feed.publishInOrder(entry(sequence)) }
        #expect(ids(first, count: 1) == [5])
        #expect(ids(second, count: 4) == [2, 3, 4, 5], "its replay, then each entry once")
        #expect(feed.oldestSeen == 5)
    }

    @Test func anEntryAStreamsFilterRefusesStillCountsAsOffered() throws {
        let feed = JournalFeed()
        let inbox = try feed.subscribe(filter: JournalFilter(query: [(name: "endpoint", value: "signal.inbox")]), replay: [])
        for sequence in 1...3 { feed.publishInOrder(entry(sequence)) }
        #expect(ids(inbox, count: 0) == [])
        #expect(feed.oldestSeen == 3, "a reader would otherwise read the refused entries again and again")
    }
}
