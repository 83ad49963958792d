import AccordFlowConformance
import AccordHTTP

/// A journal entry as the in-memory journal keeps it: its numbers and every text member
/// (method, path, parameters, query, headers, session, …) packed into one buffer of the
/// exact size, and the members that are not text beside it.
///
/// An entry as the engine files it holds each header value longer than 15 bytes, the
/// headers' list, the query's list and the path in allocations of their own, about 1 KB
/// a request; packed, a signed GET is about 500 bytes in one allocation, so the journal's
/// 10,000 entries take less than half the memory. Packing copies bytes and nothing else
/// (about 2.6k instructions for a signed GET); unpacking happens only when the journal is read.
package struct PackedEntry: Sendable {
    /// The numbers first, the entry's own number at offset 0.
    private var packed: [UInt8]
    private let body: JournalEntry.Body?
    private let response: JournalEntry.Response?
    private let problems: [JournalEntry.Problem]
    /// The flow rules the entry broke, set as the journal files it.
    var flowViolations: [FlowViolation]

    /// Sets the entry's number, as the journal files it.
    package mutating func number(_ sequence: Int) {
        packed.withUnsafeMutableBytes { $0.storeBytes(of: Int64(sequence), as: Int64.self) }
    }

    /// `entry` packed, its number included.
    package init(_ entry: JournalEntry) {
        body = entry.body
        response = entry.response
        problems = entry.problems
        flowViolations = entry.flowViolations
        let size = Self.size(of: entry)
        packed = Array(unsafeUninitializedCapacity: size) { buffer, count in
            var writer = Writer(base: UnsafeMutableRawPointer(buffer.baseAddress!))
            writer.pack(entry)
            count = size
        }
    }

    /// Whether `filter` admits the entry, read from its numbers, verdict, session and
    /// endpoint alone: a reader's filter does not unpack the entries it passes over.
    package func isAdmitted(by filter: JournalFilter) -> Bool {
        packed.withUnsafeBytes { bytes in
            var reader = Reader(bytes: bytes)
            return filter.admits(reader.head())
        }
    }

    /// The entry as it was filed.
    package var entry: JournalEntry {
        packed.withUnsafeBytes { bytes in
            var reader = Reader(bytes: bytes)
            var entry = reader.head()
            reader.rest(of: &entry)
            entry.body = body
            entry.response = response
            entry.problems = problems
            entry.flowViolations = flowViolations
            return entry
        }
    }

    /// Eight numbers, a byte of which optional ones are set, then each text (the verdict first)
    /// with its length (no array literals: each would be an allocation per request).
    private static func size(of entry: JournalEntry) -> Int {
        func size(_ text: String?) -> Int { 4 + (text?.utf8.count ?? 0) }
        func size(_ pairs: [(name: String, value: String)]) -> Int {
            pairs.reduce(4) { $0 + 8 + $1.name.utf8.count + $1.value.utf8.count }
        }
        return 8 * 8 + 1 + size(entry.verdict.rawValue) + size(entry.method) + size(entry.path) + size(entry.session) + size(entry.endpoint) + size(entry.answer)
            + size(entry.injected) + size(entry.replica) + size(entry.tokenTag) + size(entry.fault)
            + size(entry.parameters) + size(entry.query) + size(entry.headers.fields)
    }

    /// The bit of the set byte for each optional number.
    private enum Present {
        static let user: UInt8 = 1, code: UInt8 = 2, sent: UInt8 = 4, answered: UInt8 = 8
    }

    /// A length that stands for nil.
    private static let absent = UInt32.max

    private struct Writer {
        var base: UnsafeMutableRawPointer
        var offset = 0

        mutating func pack(_ entry: JournalEntry) {
            var present: UInt8 = 0
            if entry.user != nil { present |= Present.user }
            if entry.code != nil { present |= Present.code }
            if entry.sentMicroseconds != nil { present |= Present.sent }
            if entry.answeredMicroseconds != nil { present |= Present.answered }
            number(Int64(entry.sequence))
            number(entry.time)
            number(entry.wallTime)
            number(Int64(entry.status))
            number(Int64(entry.user ?? 0))
            number(Int64(entry.code ?? 0))
            number(entry.sentMicroseconds ?? 0)
            number(entry.answeredMicroseconds ?? 0)
            byte(present)
            text(entry.verdict.rawValue)
            text(entry.method)
            text(entry.path)
            text(entry.session)
            text(entry.endpoint)
            text(entry.answer)
            text(entry.injected)
            text(entry.replica)
            text(entry.tokenTag)
            text(entry.fault)
            pairs(entry.parameters)
            pairs(entry.query)
            pairs(entry.headers.fields)
        }

        private mutating func number(_ value: Int64) {
            base.storeBytes(of: value, toByteOffset: offset, as: Int64.self)
            offset += 8
        }

        private mutating func byte(_ value: UInt8) {
            base.storeBytes(of: value, toByteOffset: offset, as: UInt8.self)
            offset += 1
        }

        private mutating func pairs(_ pairs: [(name: String, value: String)]) {
            length(UInt32(pairs.count))
            for index in pairs.indices {
                text(pairs[index].name)
                text(pairs[index].value)
            }
        }

        private mutating func length(_ value: UInt32) {
            base.storeBytes(of: value, toByteOffset: offset, as: UInt32.self)
            offset += 4
        }

        private mutating func text(_ text: String?) {
            guard let text else { return length(PackedEntry.absent) }
            // A native or small string's bytes are read where they are.
            if text.utf8.withContiguousStorageIfAvailable({ bytes(UnsafeRawBufferPointer($0)) }) == nil {
                Array(text.utf8).withUnsafeBytes { bytes($0) }
            }
        }

        private mutating func bytes(_ source: UnsafeRawBufferPointer) {
            length(UInt32(source.count))
            if let start = source.baseAddress { (base + offset).copyMemory(from: start, byteCount: source.count) }
            offset += source.count
        }
    }

    private struct Reader {
        let bytes: UnsafeRawBufferPointer
        var offset = 0

        /// The numbers, the verdict, the method, path, session and endpoint.
        mutating func head() -> JournalEntry {
            // In the order `Writer.pack` wrote them.
            let sequence = number(), time = number(), wallTime = number(), status = number()
            let user = number(), code = number(), sent = number(), answered = number()
            let present = byte()
            let verdict = Verdict(rawValue: text()) ?? .ok
            let method = text(), path = text(), session = text()
            var entry = JournalEntry(time: time, wallTime: wallTime, method: method, path: path, session: session,
                                     status: Int(status), verdict: verdict)
            entry.sequence = Int(sequence)
            if present & Present.user != 0 { entry.user = Int(user) }
            if present & Present.code != 0 { entry.code = Int(code) }
            if present & Present.sent != 0 { entry.sentMicroseconds = sent }
            if present & Present.answered != 0 { entry.answeredMicroseconds = answered }
            entry.endpoint = optionalText()
            return entry
        }

        /// The members after ``head()``.
        mutating func rest(of entry: inout JournalEntry) {
            entry.answer = optionalText()
            entry.injected = optionalText()
            entry.replica = optionalText()
            entry.tokenTag = optionalText()
            entry.fault = optionalText()
            entry.parameters = pairs()
            entry.query = pairs()
            entry.headers = HTTPHeaders(pairs())
        }

        private mutating func number() -> Int64 {
            defer { offset += 8 }
            return bytes.loadUnaligned(fromByteOffset: offset, as: Int64.self)
        }

        private mutating func byte() -> UInt8 {
            defer { offset += 1 }
            return bytes[offset]
        }

        private mutating func length() -> UInt32 {
            defer { offset += 4 }
            return bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self)
        }

        private mutating func text(count: Int) -> String {
            defer { offset += count }
            return String(decoding: UnsafeRawBufferPointer(rebasing: bytes[offset..<offset + count]), as: UTF8.self)
        }

        private mutating func text() -> String {
            text(count: Int(length()))
        }

        private mutating func optionalText() -> String? {
            let count = length()
            return count == PackedEntry.absent ? nil : text(count: Int(count))
        }

        private mutating func pairs() -> [(name: String, value: String)] {
            (0..<Int(length())).map { _ in (name: text(), value: text()) }
        }
    }
}
