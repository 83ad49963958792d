import AccordTesting
import Foundation
import Testing
import TongbanAPI

// The example of docs/generator.md, compiled and run: a view model written against
// `APISending`, tested with the generated `MockAPIClient`. The lines between the
// markers must appear in the document as they are here.

// docs:begin view-model
/// The inbox screen: loads the signals, publishes one, and shows what went wrong.
@MainActor final class InboxModel {
    private let api: any APISending
    private(set) var signals: [Signal] = []
    private(set) var alert: String?

    init(api: any APISending) {
        self.api = api
    }

    func load() async {
        do {
            signals = try await api.send(API.signal.inbox(limit: 20)).items
        } catch {
            alert = error.description
        }
    }

    func publish(_ text: String) async {
        do {
            let signal = try await api.send(API.signal.publish(SignalPublishRequest(content: text, isFlash: false)))
            signals.insert(signal, at: 0)
        } catch .business(.quota, let message, _) {
            alert = message
        } catch {
            alert = error.description
        }
    }
}

@MainActor @Test func aQuotaAnswerShowsTheServersMessage() async {
    let api = MockAPIClient()
    await api.respond(to: API.signal.inbox()) { _ in SignalInbox(items: [], unreadCount: 0) }
    await api.fail(API.signal.publish(SignalPublishRequest(content: "", isFlash: false)),
                   with: .business(.quota, message: "今日信号已达上限", envelope: nil))
    let model = InboxModel(api: api)
    await model.load()
    await model.publish("你好")
    #expect(model.alert == "今日信号已达上限")
    #expect(await api.calls.map(\.id) == ["signal.inbox", "signal.publish"])
    #expect(await api.calls.last?.body == #"{"content":"你好","is_flash":false}"#)
}
// docs:end view-model

// docs:begin view-model-transport
@MainActor @Test func theInboxThroughAnExpiredTokenAndABan() async {
    let session = Tokens(accessToken: "preview-access-token", refreshToken: "preview-refresh-token")
    let mock = MockTransport(session: session)
    let api = APIClient(configuration: .preview, storage: InMemoryTokenStorage(session), transport: mock)
    let model = InboxModel(api: api)

    await mock.expireTokens()
    await model.load()  // 1002, one refresh, the call again: all in process
    #expect(model.signals == API.signal.fixtures.inbox.firstPage.items)
    #expect(await mock.calls.map(\.endpoint) == ["signal.inbox", "auth.refresh", "signal.inbox"])

    await mock.ban(BanNotice(banInfo: BanInfo(reason: "违规内容")))
    await model.load()
    #expect(model.alert == "banned")
}
// docs:end view-model-transport

@MainActor @Test func anUnansweredCallFailsLoudly() async {
    let model = InboxModel(api: MockAPIClient())
    await model.load()
    #expect(model.alert == "network error: MockAPIClient has no answer for signal.inbox")
}

@Test func theMockStreamsAndBroadcasts() async throws {
    let api = MockAPIClient()
    await api.respond(to: API.learning.aiChatStream(AIChatRequest(messages: [])), with: [ChatDelta(delta: "一"), ChatDelta(delta: "二")])
    var deltas: [String] = []
    for try await event in api.stream(API.learning.aiChatStream(AIChatRequest(messages: []))) { deltas.append(event.delta) }
    #expect(deltas == ["一", "二"])
    let events = api.events
    await api.emit(.loggedOut(.forceLogout))
    for await event in events {
        #expect(event == .loggedOut(.forceLogout))
        break
    }
}

@Test(arguments: ["view-model", "view-model-transport"])
func theDocumentShowsTheExampleAsCompiled(marker: String) throws {
    let source = try String(contentsOfFile: #filePath, encoding: .utf8)
    let lines = source.split(separator: "\n", omittingEmptySubsequences: false)
    guard let begin = lines.firstIndex(of: "// docs:begin \(marker)"[...]), let end = lines.firstIndex(of: "// docs:end \(marker)"[...]) else {
        Issue.record("the markers are missing")
        return
    }
    let example = lines[(begin + 1)..<end].joined(separator: "\n")
    let document = try String(contentsOfFile: Repository.root.appendingPathComponent("docs/generator.md").path, encoding: .utf8)
    #expect(document.contains(example), "docs/generator.md must show the example '\(marker)' of ViewModelExampleTests.swift as it is")
}
