import AccordHTTP
import AccordJSON
import AccordMockState

/// One call of the control API: its method, its path under `/__accord/` as segments
/// (`*` stands for any one), and the engine's handler for it.
struct ControlRoute: Sendable {
    let method: String
    let segments: [String]
    let handle: @Sendable (MockEngine) -> (ControlCall) throws(StorageError) -> MockResponse

    /// - Parameter path: the path under `/__accord/`, such as `users/*/ban`.
    init(_ method: String, _ path: String, handle: @escaping @Sendable (MockEngine) -> (ControlCall) throws(StorageError) -> MockResponse) {
        self.method = method
        segments = path.split(separator: "/").map(String.init)
        self.handle = handle
    }

    /// The call, when `segments` (the request's, under `/__accord/`) fit this route.
    func match(_ segments: [String], request: MockRequest, body: JSONValue) -> ControlCall? {
        guard segments.count == self.segments.count else { return nil }
        var wildcards: [String] = []
        for (pattern, segment) in zip(self.segments, segments) {
            if pattern == "*" { wildcards.append(segment) } else if pattern != segment { return nil }
        }
        return ControlCall(request: request, body: body, wildcards: wildcards)
    }
}

/// A control request as its handler reads it.
struct ControlCall: Sendable {
    let request: MockRequest
    /// The JSON body; an empty object when there is none.
    let body: JSONValue
    /// The path segments the route's `*` stood for, in order.
    let wildcards: [String]

    /// The value of query parameter `name`, if given.
    func query(_ name: String) -> String? {
        request.query.first { $0.name == name }?.value
    }
}
