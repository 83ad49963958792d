import Foundation

/// A body that arrives while it is sent: one thread writes (an upstream's answer as it
/// comes), the transport reads. Bounded: a writer blocks while ``capacity`` bytes wait
/// unread, so a slow reader slows the upstream instead of growing memory; a reader that
/// finds nothing asks to be woken (``whenReadable(_:)``) instead of blocking a worker.
public final class BodyPipe: @unchecked Sendable, Equatable {
    /// What a read found.
    public enum ReadResult: Sendable, Equatable {
        /// This many bytes were copied.
        case bytes(Int)
        /// Nothing yet; ask ``whenReadable(_:)`` to be woken.
        case empty
        /// The writer finished and everything was read.
        case end
        /// The writer failed: the body is cut short.
        case failed
    }

    /// The most bytes waiting unread before a writer blocks.
    public let capacity: Int
    /// How long a writer waits for the reader to take something before it gives up (the
    /// body is then cut as if the reader were gone); nil waits as long as it takes.
    public let stallTimeout: Duration?
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var buffered: [UInt8] = []
    private var readOffset = 0
    private var finished = false
    private var failed = false
    private var readerGone = false
    private var waker: (@Sendable () -> Void)?

    public init(capacity: Int = 256 << 10, stallTimeout: Duration? = nil) {
        self.capacity = max(1, capacity)
        self.stallTimeout = stallTimeout
    }

    public static func == (lhs: BodyPipe, rhs: BodyPipe) -> Bool { lhs === rhs }

    // MARK: Writer

    /// Appends `bytes`, waiting while the pipe is full. False once the reader is gone
    /// (the client hung up): the writer should stop.
    @discardableResult
    public func write(_ bytes: UnsafeRawBufferPointer) -> Bool {
        var remaining = bytes[...]
        while !remaining.isEmpty {
            condition.lock()
            let deadline = stallTimeout.map { Date().addingTimeInterval(Double($0.components.seconds) + Double($0.components.attoseconds) / 1e18) }
            while buffered.count - readOffset >= capacity && !readerGone {
                guard let deadline else {
                    condition.wait()
                    continue
                }
                if !condition.wait(until: deadline) && buffered.count - readOffset >= capacity {
                    // The reader took nothing for the whole stall timeout: it is as good as gone.
                    readerGone = true
                }
            }
            if readerGone {
                condition.unlock()
                return false
            }
            let room = capacity - (buffered.count - readOffset)
            let piece = remaining.prefix(room)
            buffered.append(contentsOf: piece)
            remaining = remaining.dropFirst(piece.count)
            let wake = takeWaker()
            condition.unlock()
            wake?()
        }
        return true
    }

    /// Appends `bytes` (see ``write(_:)-(UnsafeRawBufferPointer)``).
    @discardableResult
    public func write(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { write($0) }
    }

    /// Appends what fits of `bytes` without waiting: how many bytes were taken, or nil
    /// once the reader is gone. For a writer that must never block (an event feed).
    public func offer(_ bytes: ArraySlice<UInt8>) -> Int? {
        condition.lock()
        guard !readerGone else {
            condition.unlock()
            return nil
        }
        let piece = bytes.prefix(max(0, capacity - (buffered.count - readOffset)))
        buffered.append(contentsOf: piece)
        let wake = piece.isEmpty ? nil : takeWaker()
        condition.unlock()
        wake?()
        return piece.count
    }

    /// No more bytes will come: the body ends, or is cut short when `failed`.
    public func finish(failed: Bool = false) {
        condition.lock()
        finished = true
        self.failed = failed
        let wake = takeWaker()
        condition.unlock()
        wake?()
    }

    // MARK: Reader

    /// Copies what is waiting into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        condition.lock()
        defer { condition.unlock() }
        let available = buffered.count - readOffset
        guard available > 0 else { return finished ? (failed ? .failed : .end) : .empty }
        let count = min(available, buffer.count)
        buffered.withUnsafeBytes { source in
            buffer.baseAddress?.copyMemory(from: source.baseAddress! + readOffset, byteCount: count)
        }
        readOffset += count
        if readOffset == buffered.count {
            buffered.removeAll(keepingCapacity: true)
            readOffset = 0
        }
        condition.broadcast()
        return .bytes(count)
    }

    /// Calls `wake` once bytes are waiting or the writer finished: at once if so
    /// already, else from the writer's thread.
    public func whenReadable(_ wake: @escaping @Sendable () -> Void) {
        condition.lock()
        let ready = buffered.count > readOffset || finished
        if !ready { waker = wake }
        condition.unlock()
        if ready { wake() }
    }

    /// The reader is gone: a blocked writer returns, later writes fail.
    public func close() {
        condition.lock()
        readerGone = true
        waker = nil
        condition.broadcast()
        condition.unlock()
    }

    private func takeWaker() -> (@Sendable () -> Void)? {
        defer { waker = nil }
        return waker
    }
}
