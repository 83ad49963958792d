import AccordHTTP
import AccordSync

/// The engine being served, replaced as a whole on reload while requests go on. A
/// request takes one reference to the engine under the lock (an engine is a class:
/// never copied) and finishes on the engine it started with.
public final class LiveEngine: Sendable {
    private let storage: Locked<MockEngine>

    public init(_ engine: MockEngine) {
        storage = Locked(engine)
    }

    /// The engine serving now.
    public var engine: MockEngine { storage.withLock { $0 } }

    /// Answers one request with the engine serving now.
    public func handle(_ request: MockRequest) -> MockResponse {
        engine.handle(request)
    }

    /// Serves `engine` from the next request on.
    public func replace(with engine: MockEngine) {
        storage.withLock { $0 = engine }
    }
}
