import AccordJSON
import Foundation

/// A HAR 1.2 file (as Charles, Proxyman, Safari's and Chrome's web inspectors export
/// it) read entry by entry: the file's bytes are scanned for `log.entries` and each
/// entry alone is parsed, so a capture of 20,000 entries never becomes one tree.
public struct HARFile: Sendable {
    /// The largest HAR read: 1 GiB.
    public static let maxBytes = 1 << 30

    public let path: String
    private let bytes: [UInt8]

    public init(path: String) throws(CaptureError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw CaptureError("\(path): cannot be read") }
        guard data.count <= Self.maxBytes else { throw CaptureError("\(path): larger than \(Self.maxBytes) bytes") }
        self.init(bytes: [UInt8](data), path: path)
    }

    /// A HAR already in memory; `path` names it in messages.
    public init(bytes: [UInt8], path: String) {
        self.path = path
        self.bytes = bytes
    }

    /// Calls `body` with each entry, in file order.
    public func forEach(_ body: (CapturedExchange) throws(CaptureError) -> Void) throws(CaptureError) {
        try forEachEntry { bytes, number throws(CaptureError) in
            try body(try Self.exchange(bytes, origin: "\(path):entry \(number)"))
        }
    }

    /// The exchange an entry's bytes (from ``forEachEntry(_:)``) describe.
    public static func exchange(_ bytes: ArraySlice<UInt8>, origin: String) throws(CaptureError) -> CapturedExchange {
        let json: JSONValue
        do throws(JSONReader.Failure) {
            json = try JSONReader.read(bytes)
        } catch {
            throw CaptureError("\(origin): not JSON: \(error.message)")
        }
        return try HAREntry.exchange(json, origin: origin)
    }

    /// Calls `body` with each entry's bytes and its 1-based number, in file order,
    /// parsing nothing: the caller decides where the entries are parsed.
    public func forEachEntry(_ body: (ArraySlice<UInt8>, Int) throws(CaptureError) -> Void) throws(CaptureError) {
        var scanner = Scanner(bytes: bytes, path: path)
        scanner.skipSpace()
        guard scanner.peek == UInt8(ascii: "{") else {
            let start = String(decoding: bytes.prefix(16), as: UTF8.self).replacingOccurrences(of: "\n", with: " ")
            throw CaptureError("\(path): not a HAR file: it is not a JSON object (it starts with '\(start)')")
        }
        var found = false
        try scanner.members { scanner, key throws(CaptureError) in
            guard key == "log" else { try scanner.skipValue(); return }
            try scanner.members { scanner, key throws(CaptureError) in
                guard key == "entries" else { try scanner.skipValue(); return }
                found = true
                var number = 0
                try scanner.elements { scanner throws(CaptureError) in
                    number += 1
                    scanner.entry = number
                    let range = try scanner.skipValue()
                    try body(bytes[range], number)
                }
            }
        }
        guard found else { throw CaptureError("\(path): not a HAR file: it has no 'log.entries'") }
    }

    /// Walks JSON structure without building values.
    private struct Scanner {
        let bytes: [UInt8]
        let path: String
        var index = 0
        /// The entry being read, for messages.
        var entry = 0

        var peek: UInt8? { index < bytes.count ? bytes[index] : nil }

        mutating func skipSpace() {
            while let byte = peek, byte == 0x20 || byte == 0x0A || byte == 0x0D || byte == 0x09 { index += 1 }
        }

        func truncated() -> CaptureError {
            CaptureError("\(path): truncated: the file ends at byte \(bytes.count) inside \(entry == 0 ? "the HAR header" : "entry \(entry)")")
        }

        func unexpected(_ expected: String) -> CaptureError {
            guard let byte = peek else { return truncated() }
            return CaptureError("\(path): byte \(index): expected \(expected), found '\(Character(Unicode.Scalar(byte)))'")
        }

        mutating func expect(_ byte: UInt8, _ name: String) throws(CaptureError) {
            skipSpace()
            guard peek == byte else { throw unexpected(name) }
            index += 1
        }

        /// Each member of the object here: `visit` reads (or skips) its value.
        mutating func members(_ visit: (inout Scanner, String) throws(CaptureError) -> Void) throws(CaptureError) {
            try expect(UInt8(ascii: "{"), "'{'")
            skipSpace()
            if peek == UInt8(ascii: "}") { index += 1; return }
            while true {
                skipSpace()
                guard peek == UInt8(ascii: "\"") else { throw unexpected("a member name") }
                let range = try skipValue()
                guard case .string(let key)? = try? JSONReader.read(bytes[range]) else { throw unexpected("a member name") }
                try expect(UInt8(ascii: ":"), "':'")
                try visit(&self, key)
                skipSpace()
                guard let byte = peek else { throw truncated() }
                index += 1
                if byte == UInt8(ascii: "}") { return }
                guard byte == UInt8(ascii: ",") else { index -= 1; throw unexpected("',' or '}'") }
            }
        }

        /// Each element of the array here.
        mutating func elements(_ visit: (inout Scanner) throws(CaptureError) -> Void) throws(CaptureError) {
            try expect(UInt8(ascii: "["), "'['")
            skipSpace()
            if peek == UInt8(ascii: "]") { index += 1; return }
            while true {
                try visit(&self)
                skipSpace()
                guard let byte = peek else { throw truncated() }
                index += 1
                if byte == UInt8(ascii: "]") { return }
                guard byte == UInt8(ascii: ",") else { index -= 1; throw unexpected("',' or ']'") }
            }
        }

        /// Moves past the value here and returns its bytes.
        @discardableResult
        mutating func skipValue() throws(CaptureError) -> Range<Int> {
            skipSpace()
            let start = index
            guard let first = peek else { throw truncated() }
            switch first {
            case UInt8(ascii: "\""):
                index += 1
                try skipStringRest()
            case UInt8(ascii: "{"), UInt8(ascii: "["):
                var depth = 0
                repeat {
                    guard let byte = peek else { throw truncated() }
                    index += 1
                    switch byte {
                    case UInt8(ascii: "{"), UInt8(ascii: "["): depth += 1
                    case UInt8(ascii: "}"), UInt8(ascii: "]"): depth -= 1
                    case UInt8(ascii: "\""): try skipStringRest()
                    default: break
                    }
                } while depth > 0
            default:
                while let byte = peek, !Self.endsScalar(byte) { index += 1 }
                if index == bytes.count { throw truncated() }
            }
            return start..<index
        }

        private mutating func skipStringRest() throws(CaptureError) {
            while true {
                guard let byte = peek else { throw truncated() }
                index += 1
                if byte == UInt8(ascii: "\\") {
                    index += 1
                } else if byte == UInt8(ascii: "\"") {
                    return
                }
            }
        }

        private static func endsScalar(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: ",") || byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]") || byte == 0x20 || byte == 0x0A
                || byte == 0x0D || byte == 0x09
        }
    }
}
