import Dispatch
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Array where Element: Sendable {
    /// `map` on every core, in order: the array cut into a few chunks per core, each
    /// mapped on a thread of its own. For work that is long beside a thread's start
    /// (parsing a file, rendering a type); the result is the same as `map`'s.
    ///
    /// ```swift
    /// let documents = sources.concurrentMap { YAMLParser.parse($0.bytes, file: $0.path) }
    /// ```
    public func concurrentMap<T: Sendable>(_ transform: @escaping @Sendable (Element) -> T) -> [T] {
        let cores = Swift.max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        let chunks = Swift.min(count, cores * 4)
        guard chunks > 1, cores > 1 else { return map(transform) }
        let parts = Locked([[T]](repeating: [], count: chunks))
        let elements = self
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let range = (elements.count * chunk / chunks)..<(elements.count * (chunk + 1) / chunks)
            let part = elements[range].map(transform)
            parts.withLock { $0[chunk] = part }
        }
        return parts.withLock { $0.flatMap { $0 } }
    }
}
