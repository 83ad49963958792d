#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A value that threads share, reached only under a pthread mutex.
///
/// The one lock of Accord's shared state. It is used instead of
/// `Synchronization.Mutex` because ThreadSanitizer on Linux does not understand
/// `Mutex`'s futex-based lock and reports false races behind it, which would hide the
/// real ones; `pthread_mutex_lock` is one it intercepts, so `swift test
/// --sanitize=thread` sees every lock here.
///
/// ```swift
/// let count = Locked(0)
/// count.withLock { $0 += 1 }
/// ```
public final class Locked<Value>: @unchecked Sendable {
    private let mutex: UnsafeMutablePointer<pthread_mutex_t>
    /// Only ever reached under `mutex`, which is the exclusivity the runtime's own check
    /// (80 instructions an access) would prove again on every call.
    @exclusivity(unchecked) private var value: Value

    public init(_ value: Value) {
        self.value = value
        mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
        mutex.initialize(to: pthread_mutex_t())
        var attributes = pthread_mutexattr_t()
        pthread_mutexattr_init(&attributes)
        #if os(Linux)
        // Spin briefly before sleeping, as Mutex does: the locks here are held for
        // microseconds by two or three worker threads.
        pthread_mutexattr_settype(&attributes, Int32(PTHREAD_MUTEX_ADAPTIVE_NP))
        #endif
        pthread_mutex_init(mutex, &attributes)
        pthread_mutexattr_destroy(&attributes)
    }

    deinit {
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
    }

    /// Runs `body` with the value, holding the lock; `body` must not call back into this lock.
    public func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        return try body(&value)
    }
}
