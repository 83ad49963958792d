import AccordContract
import AccordGenerator
import Foundation
import Testing

/// A streaming endpoint's `…Stream` function takes what the plain call takes (path
/// parameters, query, headers) and asks for events through the body's toggle.
@Suite struct StreamEndpointTests {
    @Test func aStreamWithAPathParameterAndAQueryGetsItsStreamFunction() throws {
        let yaml = """
        domain: chat
        endpoints:
          chat.reply:
            route: POST /rooms/{room_id}/replies
            params: {room_id: string}
            query: {lang: string?}
            body: {text: string, stream: bool}
            response: {reply: string}
            stream: {toggle: stream, event: {delta: string}}
        """
        let outcome = InlineContract.load(domain: yaml, file: "contracts/chat.yaml")
        let contract = try #require(outcome.contract, "\(outcome.diagnostics)")
        let endpoints = try #require(SwiftGenerator(contract: contract, access: .internal).files().first { $0.path == "Endpoints/API+Chat.swift" })
        #expect(endpoints.contents.contains("""
            func replyStream(roomID: String, body: ChatReplyRequest, lang: String? = nil) -> StreamEndpoint<ChatReplyEvent> {
                var body = body
                body.stream = true
                var query: [QueryItem] = []
                if let langValue = lang { query.append(QueryItem(name: "lang", value: langValue)) }
                return StreamEndpoint(request: Endpoint(
                    id: "chat.reply", method: .post,
                    path: Endpoint<AccordEmpty>.joinedPath("/rooms/", Endpoint<AccordEmpty>.segment(roomID), "/replies"), query: query,
                    body: body, requiresAuth: false
                ))
            }
        """), "\(endpoints.contents)")
    }

    /// A toggle whose property was renamed (another member has its Swift name) is set by
    /// its new name, and still defaults to false.
    @Test func aRenamedToggleIsSetByItsProperty() throws {
        let yaml = """
        domain: chat
        endpoints:
          chat.reply:
            route: POST /replies
            body: {text: string, is_streaming: bool, isStreaming: bool}
            response: {reply: string}
            stream: {toggle: isStreaming, event: {delta: string}}
        """
        let outcome = InlineContract.load(domain: yaml, file: "contracts/chat.yaml")
        let contract = try #require(outcome.contract, "\(outcome.diagnostics)")
        let files = SwiftGenerator(contract: contract, access: .internal).files()
        let endpoints = try #require(files.first { $0.path == "Endpoints/API+Chat.swift" }).contents
        #expect(endpoints.contains("    body.isStreaming2 = true\n"), "\(endpoints)")
        let models = try #require(files.first { $0.path == "Models/ChatModels.swift" }).contents
        #expect(models.contains("init(text: String, isStreaming: Bool, isStreaming2: Bool = false)"), "\(models)")
    }

    /// A stream's function whose name another endpoint of the domain has (`chat.reply`
    /// streams as `replyStream`, the function of `chat.reply-stream`) is numbered, with a
    /// warning at the streaming endpoint: two functions of one name and parameters, told
    /// apart only by their results, would make every call of either ambiguous.
    @Test func aStreamFunctionNamedAsAnotherEndpointIsNumbered() throws {
        let yaml = """
        domain: chat
        types:
          Message: {text: string, stream: bool}
        endpoints:
          chat.reply:
            route: POST /replies
            body: Message
            response: {reply: string}
            stream: {toggle: stream, event: {delta: string}}
          chat.reply-stream:
            route: POST /replies/stream
            body: Message
            response: {reply: string}
        """
        let outcome = InlineContract.load(domain: yaml, file: "contracts/chat.yaml")
        let generator = SwiftGenerator(contract: try #require(outcome.contract, "\(outcome.diagnostics)"))
        #expect(generator.diagnostics().map(\.description) == [
            "contracts/chat.yaml:5:3: warning: the stream of endpoint 'chat.reply' is the function 'replyStream2' in the generated Swift: 'replyStream' is taken",
        ])
        let files = generator.files()
        let endpoints = try #require(files.first { $0.path == "Endpoints/API+Chat.swift" }).contents
        for line in ["public func replyStream2(_ body: Message) -> StreamEndpoint<ChatReplyEvent> {",
                     "public func replyStream(_ body: Message) -> Endpoint<ChatReplyStreamResponse> {"] {
            #expect(endpoints.contains(line), "\(line) in:\n\(endpoints)")
        }
        let errors = try NamingCollisionTests.typeCheck(files)
        #expect(errors.isEmpty, "\(errors)")
    }
}
