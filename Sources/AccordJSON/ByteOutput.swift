/// A growing run of bytes that is written once and then handed on: the journal's
/// entries and the live feed's events. An `[UInt8]` checks its uniqueness and capacity
/// on every append and goes through a generic path for every run appended; this buffer
/// is owned by one writer (it cannot be copied), so an append is a capacity check and
/// a store, and a run one `memcpy`.
public struct ByteOutput: ~Copyable {
    @usableFromInline var start: UnsafeMutablePointer<UInt8>
    @usableFromInline var capacity: Int
    /// How many bytes are written.
    @usableFromInline var written = 0

    /// How many bytes are written.
    public var count: Int { written }

    /// An empty buffer with room for `capacity` bytes before it first grows.
    public init(capacity: Int) {
        self.capacity = max(capacity, 16)
        start = .allocate(capacity: self.capacity)
    }

    deinit { start.deallocate() }

    /// Appends one byte.
    @inlinable @inline(__always)
    public mutating func append(_ byte: UInt8) {
        if written == capacity { grow(toHold: 1) }
        start[written] = byte
        written += 1
    }

    /// Appends a run of bytes.
    @inlinable @inline(__always)
    public mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if capacity - written < bytes.count { grow(toHold: bytes.count) }
        (start + written).update(from: base, count: bytes.count)
        written += bytes.count
    }

    /// Appends the bytes of `array`.
    public mutating func append(contentsOf array: [UInt8]) {
        array.withUnsafeBufferPointer { append($0) }
    }

    /// Appends the UTF-8 bytes of `text`, read where they are.
    @inlinable
    public mutating func append(contentsOf text: String) {
        var text = text
        text.withUTF8 { append($0) }
    }

    /// Appends the UTF-8 bytes of a literal.
    @inlinable @inline(__always)
    public mutating func append(_ literal: StaticString) {
        literal.withUTF8Buffer { append($0) }
    }

    /// The bytes written so far, lent to `body` without a copy.
    public func withUnsafeBytes<Result, Failure: Error>(_ body: (UnsafeBufferPointer<UInt8>) throws(Failure) -> Result) throws(Failure) -> Result {
        try body(UnsafeBufferPointer(start: start, count: written))
    }

    /// The bytes written, as an array of exactly their size.
    public consuming func bytes() -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: written) { buffer, initialized in
            buffer.baseAddress?.initialize(from: start, count: written)
            initialized = written
        }
    }

    /// The bytes written, as UTF-8 text (invalid sequences repaired), without an array between.
    public consuming func string() -> String {
        String(decoding: UnsafeBufferPointer(start: start, count: written), as: UTF8.self)
    }

    /// Doubles the room, or more when `extra` bytes need more, keeping what is written.
    @usableFromInline
    mutating func grow(toHold extra: Int) {
        let (needed, overflow) = written.addingReportingOverflow(extra)
        precondition(!overflow, "a byte output cannot hold more than Int.max bytes")
        let larger = max(needed, capacity > Int.max / 2 ? Int.max : capacity * 2)
        let moved = UnsafeMutablePointer<UInt8>.allocate(capacity: larger)
        moved.initialize(from: start, count: written)
        start.deallocate()
        start = moved
        capacity = larger
    }
}

/// Where ``JSONWriter`` writes: an array, or a ``ByteOutput``.
protocol ByteSink: ~Copyable {
    mutating func append(_ byte: UInt8)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>)
}

extension ByteOutput: ByteSink {}

extension Array: ByteSink where Element == UInt8 {
    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        append(contentsOf: bytes)
    }
}
