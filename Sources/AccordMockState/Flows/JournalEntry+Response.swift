import AccordHTTP
import AccordJSON

extension JournalEntry {
    /// An answer's body as the journal keeps it: its bytes up to ``Body/limit``, else only its size.
    public struct Response: Sendable, Equatable {
        /// The body, when kept.
        public var bytes: [UInt8]?
        /// The body's size.
        public var size: Int
        /// Whether the body is compact JSON this server wrote itself, on one line, which
        /// the live feed copies into an event as it is instead of reading it back.
        public var isCompactJSON = false

        /// - Parameters:
        ///   - body: what was sent; a stream's bytes are not known, so only `0` is kept.
        ///   - isCompactJSON: the writer vouches that the bytes are compact JSON (the
        ///     engine's own answers; not a fault's broken JSON, not an upstream's).
        package init(_ body: MockResponse.Body, isCompactJSON: Bool = false) {
            switch body {
            case .bytes(let bytes):
                size = bytes.count
                self.bytes = bytes.count <= Body.limit ? bytes : nil
                self.isCompactJSON = isCompactJSON && self.bytes != nil && !ByteSearch.contains(0x0A, in: bytes)
                    && !ByteSearch.contains(0x0D, in: bytes)
            case .events, .chunks, .stream:
                size = 0
                bytes = nil
            }
        }

        /// The body as the journal shows it: JSON as JSON, other text as a string; nil when not kept.
        private var bodyValue: JSONValue? {
            guard let bytes, !bytes.isEmpty else { return nil }
            return (try? JSONReader.read(bytes)) ?? .string(String(decoding: bytes, as: UTF8.self))
        }

        /// `response_bytes`, then `response_body`, written into `output`, an object's
        /// members so far: `{"seq":1,…` without its `}`. A body ``isCompactJSON`` vouches
        /// for is copied, not read back and written again.
        package func append(to output: inout ByteOutput) {
            output.append(#","response_bytes":"#)
            JSONWriter.writeInteger(size, into: &output)
            if isCompactJSON, let bytes, !bytes.isEmpty {
                output.append(#","response_body":"#)
                output.append(contentsOf: bytes)
            } else if let value = bodyValue {
                output.append(#","response_body":"#)
                JSONWriter.write(value, into: &output)
            }
        }
    }
}
