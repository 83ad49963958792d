import Testing
import AccordClientRuntime

/// The runtime's server-sent events parser, fed the way a network delivers:
/// in chunks cut anywhere, with every line ending the format allows.
@Suite struct EventStreamParserTests {
    /// All events of `stream` when it arrives in chunks of `size` bytes.
    private func events(_ stream: String, chunkSize size: Int) throws -> [ServerSentEvent] {
        var parser = ServerSentEventParser()
        let bytes = Array(stream.utf8)
        var events: [ServerSentEvent] = []
        for start in stride(from: 0, to: bytes.count, by: size) {
            events += try parser.feed(bytes[start..<min(start + size, bytes.count)])
        }
        return events
    }

    @Test(arguments: ["\n", "\r\n", "\r"], [1, 2, 3, 7, 1_000])
    func lineEndingsAndChunkBoundariesDoNotMatter(newline: String, chunkSize: Int) throws {
        let stream = ["data: one", "", "data:two", "", ": a comment", "event: delta", "id: 7", "retry: 3000",
                      "data: {\"a\":", "data: 1}", "", "data: [DONE]", "", ""].joined(separator: newline)
        let parsed = try events(stream, chunkSize: chunkSize)
        #expect(parsed == [
            ServerSentEvent(data: "one"),
            ServerSentEvent(data: "two"),
            ServerSentEvent(type: "delta", data: "{\"a\":\n1}", lastEventID: "7", retry: 3000),
            ServerSentEvent(data: "[DONE]", lastEventID: "7", retry: 3000),
        ])
    }

    @Test func onlyOneSpaceAfterTheColonIsDroppedAndAFieldWithoutColonIsEmpty() throws {
        let parsed = try events("data:  two spaces\ndata\n\nevent\ndata: x\n\n", chunkSize: 4)
        #expect(parsed == [ServerSentEvent(data: " two spaces\n"), ServerSentEvent(data: "x")])
    }

    @Test func blankLinesWithoutDataDispatchNothingAndAnUnfinishedEventIsDropped() throws {
        let parsed = try events("\n\n: keep-alive\n\nevent: x\n\ndata: last", chunkSize: 5)
        #expect(parsed.isEmpty)
    }

    @Test func aBadRetryIsIgnoredAndAnIDWithNULIsIgnored() throws {
        let parsed = try events("retry: 12a\nid: a\u{0}b\ndata: d\n\n", chunkSize: 64)
        #expect(parsed == [ServerSentEvent(data: "d")])
    }

    @Test func aLineOrEventBeyondTheLimitIsRefused() throws {
        var parser = ServerSentEventParser(limit: 16)
        #expect(throws: ServerSentEventParser.Oversized.self) { try parser.feed(Array("data: 0123456789abcdef".utf8)) }
        var events = ServerSentEventParser(limit: 16)
        #expect(throws: ServerSentEventParser.Oversized.self) {
            try events.feed(Array("data: 0123456789\ndata: 0123456789\n".utf8))
        }
    }
}
