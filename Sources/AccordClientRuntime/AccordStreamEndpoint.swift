import Foundation

/// An endpoint answered with server-sent events (`text/event-stream`), each event's
/// data one `Event`, ending with `[DONE]`.
public nonisolated struct StreamEndpoint<Event: Decodable & Sendable>: Sendable {
    /// The request; its body asks for streaming.
    public var request: Endpoint<AccordEmpty>

    public init(request: Endpoint<AccordEmpty>) {
        self.request = request
    }
}
