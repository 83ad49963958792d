import AccordHTTP
import AccordJSON
import Foundation

/// Reads a file of JSON lines piece by piece, so a journal of any length is read in
/// bounded memory: at most one buffer (``chunkSize``) plus one line (at most ``maxLine``).
public struct JSONLines: Sendable {
    /// The most bytes read at once.
    public static let chunkSize = 1 << 20
    /// The longest line accepted: 16 MiB.
    public static let maxLine = 16 << 20

    public let path: String

    public init(path: String) {
        self.path = path
    }

    /// Calls `body` with each non-empty line and its 1-based number. A last line with no
    /// newline that is not whole JSON is torn: the error names it.
    public func forEach(_ body: (_ line: ArraySlice<UInt8>, _ number: Int) throws(CaptureError) -> Void) throws(CaptureError) {
        guard let handle = FileHandle(forReadingAtPath: path) else { throw CaptureError("\(path): cannot be read") }
        defer { try? handle.close() }
        var pending: [UInt8] = []
        var number = 0
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: Self.chunkSize) ?? Data()
            } catch {
                throw CaptureError("\(path): read failed after line \(number): \(error.localizedDescription)")
            }
            if chunk.isEmpty { break }
            pending.append(contentsOf: chunk)
            var start = pending.startIndex
            while let newline = ByteSearch.firstOffset(of: 0x0A, in: pending, from: start) {
                number += 1
                let line = pending[start..<newline]
                if !line.allSatisfy(Self.isSpace) { try body(line, number) }
                start = newline + 1
            }
            pending.removeSubrange(..<start)
            if pending.count > Self.maxLine { throw CaptureError("\(path):\(number + 1): a line longer than \(Self.maxLine) bytes") }
        }
        guard !pending.allSatisfy(Self.isSpace) else { return }
        number += 1
        if (try? JSONReader.read(pending)) == nil {
            throw CaptureError("\(path):\(number): the last line is torn (\(pending.count) bytes with no newline and not whole JSON)")
        }
        try body(pending[...], number)
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0D
    }
}
