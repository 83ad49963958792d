/// The values of the containers a reader is inside, not yet placed: a container's
/// members (or items) are pushed here as they are read, then moved into an array of
/// exactly their count when it closes.
///
/// One allocation a container and no room to spare: arrays grown as values arrive
/// (room for eight members from the first, doubled after) made a tree of small objects
/// take over twice the memory (`scripts/bench/proxy.sh`, eight answers of 16 MiB of
/// small objects through the proxy: a peak of 1,674 MB, now 645 MB), and an object past
/// eight members paid a copy.
struct PendingValues<Element>: ~Copyable {
    private var storage: UnsafeMutablePointer<Element>
    private var capacity: Int
    /// The values pending, those of every open container.
    private(set) var count = 0

    init(capacity: Int = 32) {
        self.capacity = capacity
        storage = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
    }

    deinit {
        // A reader that failed midway leaves its open containers' values here.
        storage.deinitialize(count: count)
        storage.deallocate()
    }

    mutating func push(_ value: consuming Element) {
        if count == capacity { grow() }
        (storage + count).initialize(to: value)
        count += 1
    }

    /// The values pushed since `start`, in order, for a look before they are taken.
    func values(from start: Int) -> UnsafeBufferPointer<Element> {
        UnsafeBufferPointer(start: storage + start, count: count - start)
    }

    /// The values pushed since `start`, moved out into an array of exactly their count.
    mutating func take(from start: Int) -> [Element] {
        // Moved one by one into room reserved at once (the stdlib's `unsafeUninitializedCapacity`
        // initializer looks the array's type up at run time on every call).
        var array: [Element] = []
        array.reserveCapacity(count - start)
        for index in start..<count { array.append((storage + index).move()) }
        count = start
        return array
    }

    private mutating func grow() {
        let larger = UnsafeMutablePointer<Element>.allocate(capacity: capacity * 2)
        larger.moveInitialize(from: storage, count: count)
        storage.deallocate()
        storage = larger
        capacity *= 2
    }
}
