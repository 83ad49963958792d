import AccordHTTP
import AccordMock
import AccordSync
import Foundation
import Testing

/// The pipe a proxied stream passes through: bounded, woken, closed from either end.
@Suite struct BodyPipeTests {
    private func read(_ pipe: BodyPipe, max: Int = 64) -> (BodyPipe.ReadResult, [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: max)
        let result = buffer.withUnsafeMutableBytes { pipe.read(into: $0) }
        if case .bytes(let count) = result { return (result, Array(buffer[..<count])) }
        return (result, [])
    }

    @Test func bytesComeOutInOrderThenTheEnd() {
        let pipe = BodyPipe(capacity: 32)
        #expect(read(pipe).0 == .empty)
        pipe.write(Array("data: 1\n\n".utf8))
        pipe.write(Array("data: 2\n\n".utf8))
        #expect(read(pipe, max: 4).1 == Array("data".utf8))
        #expect(read(pipe).1 == Array(": 1\n\ndata: 2\n\n".utf8))
        pipe.finish()
        #expect(read(pipe).0 == .end)
        let failed = BodyPipe()
        failed.write([1, 2])
        failed.finish(failed: true)
        #expect(read(failed).1 == [1, 2]) // what came is still delivered
        #expect(read(failed).0 == .failed)
    }

    @Test func aFullPipeHoldsTheWriterUntilTheReaderTakes() async {
        let pipe = BodyPipe(capacity: 4)
        let written = Locked(0)
        let writer = Thread {
            for byte in UInt8(0)..<12 {
                pipe.write([byte])
                written.withLock { $0 += 1 }
            }
            pipe.finish()
        }
        writer.start()
        while written.withLock({ $0 }) < 4 { try? await Task.sleep(for: .milliseconds(1)) }
        try? await Task.sleep(for: .milliseconds(50))
        #expect(written.withLock { $0 } == 4) // the fifth byte waits for room
        var received: [UInt8] = []
        while true {
            let (result, bytes) = read(pipe, max: 3)
            if result == .end { break }
            received += bytes
            if result == .empty { try? await Task.sleep(for: .milliseconds(1)) }
        }
        #expect(received == Array(0..<12))
    }

    @Test func aWriterGivesUpOnAReaderThatTakesNothingForItsStallTimeout() {
        let pipe = BodyPipe(capacity: 4, stallTimeout: .milliseconds(200))
        let start = ContinuousClock.now
        #expect(!pipe.write([1, 2, 3, 4, 5, 6]), "the writer waited for a reader that never reads")
        let waited = ContinuousClock.now - start
        #expect(waited >= .milliseconds(200) && waited < .seconds(5), "\(waited)")
        #expect(!pipe.write([7]), "the reader counts as gone from then on")
    }

    @Test func aWriterIsReleasedWhenTheReaderGoes() async {
        let pipe = BodyPipe(capacity: 2)
        let outcome = Locked<Bool?>(nil)
        Thread {
            let written = pipe.write([1, 2, 3, 4])
            outcome.withLock { $0 = written }
        }.start()
        try? await Task.sleep(for: .milliseconds(30))
        #expect(outcome.withLock { $0 } == nil)
        pipe.close()
        while outcome.withLock({ $0 }) == nil { try? await Task.sleep(for: .milliseconds(1)) }
        #expect(outcome.withLock { $0 } == false)
        #expect(pipe.write([5]) == false)
    }

    @Test func aWaitingReaderIsWokenOnceByTheWriter() {
        let pipe = BodyPipe()
        let wakes = Locked(0)
        pipe.whenReadable { wakes.withLock { $0 += 1 } }
        #expect(wakes.withLock { $0 } == 0)
        pipe.write([1])
        pipe.write([2])
        #expect(wakes.withLock { $0 } == 1)
        // Readable already: woken at once.
        pipe.whenReadable { wakes.withLock { $0 += 1 } }
        #expect(wakes.withLock { $0 } == 2)
    }
}
