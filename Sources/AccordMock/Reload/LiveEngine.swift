import AccordHTTP
import AccordSync

/// The engine being served, replaced as a whole on reload while requests go on. A
/// request takes one reference under the lock rather than copying the engine, and
/// finishes on the engine it started with.
public final class LiveEngine: Sendable {
    private final class Box: Sendable {
        let engine: MockEngine

        init(_ engine: MockEngine) {
            self.engine = engine
        }
    }

    private let storage: Locked<Box>

    public init(_ engine: MockEngine) {
        storage = Locked(Box(engine))
    }

    /// The engine serving now.
    public var engine: MockEngine { storage.withLock { $0 }.engine }

    /// Answers one request with the engine serving now.
    public func handle(_ request: MockRequest) -> MockResponse {
        engine.handle(request)
    }

    /// Serves `engine` from the next request on.
    public func replace(with engine: MockEngine) {
        let box = Box(engine)
        storage.withLock { $0 = box }
    }
}
